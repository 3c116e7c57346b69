import Link from "next/link";
import { DateTime } from "@/components/dashboard/date-time";
import type { BlogPostListItem } from "@/lib/services/content";

/** One post in the blog's list: cover, title (the link), date, author and excerpt. */
export function PostCard({ post, cover, timeZone }: { post: BlogPostListItem; cover: string | null; timeZone: string }) {
  return (
    <li className="flex flex-col overflow-hidden rounded-xl border border-line bg-white shadow-sm">
      {cover ? (
        // eslint-disable-next-line @next/next/no-img-element -- the post's own cover: our SVGs or an admin's https picture
        <img src={cover} alt="" width={1200} height={600} loading="lazy" className="aspect-[2/1] w-full border-b border-line bg-canvas object-cover" />
      ) : null}
      <div className="flex grow flex-col gap-2 p-5">
        <h2 className="text-xl font-semibold text-ink">
          <Link href={`/blog/${post.slug}`} className="underline-offset-4 hover:text-brand-800 hover:underline">
            {post.title}
          </Link>
        </h2>
        <p className="text-sm text-muted">
          <DateTime iso={post.publishedAt} timeZone={timeZone} dateOnly long /> · {post.author}
        </p>
        <p className="text-ink">{post.excerpt}</p>
      </div>
    </li>
  );
}
