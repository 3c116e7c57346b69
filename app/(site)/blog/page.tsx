import type { Metadata } from "next";
import { PostCard } from "@/components/blog/post-card";
import { pageParam, Pager } from "@/components/dashboard/pager";
import { SERVICE_NAME } from "@/components/site-links";
import { env } from "@/lib/env";
import { optionalUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { listPublishedPosts } from "@/lib/services/content";
import { productImagePath } from "@/lib/shop/image-path";

export const metadata: Metadata = {
  title: "Blog",
  description: `Guides and news from ${SERVICE_NAME}: writing a good tag page, lost mode, privacy for finders, NFC or QR.`,
  alternates: { canonical: "/blog", types: { "application/rss+xml": [{ url: "/blog/rss.xml", title: `${SERVICE_NAME} blog` }] } },
  openGraph: { title: `${SERVICE_NAME} blog`, type: "website", url: "/blog" },
};

const PAGE_SIZE = 12;

/** The published posts, newest first, from the same service as GET /blog; paged with ?page=. */
export default async function BlogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const page = pageParam((await searchParams).page);
  const [{ items, total }, timeZone] = await Promise.all([listPublishedPosts(await optionalUserContext(), { page, limit: PAGE_SIZE }), viewerTimeZone()]);
  const totalPages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <div className="container-page py-8 sm:py-12">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">Blog</h1>
          <p className="mt-2 max-w-2xl text-muted">Guides to getting the most from your tags, and news about how we keep owners and finders safe.</p>
        </div>
        <a href="/blog/rss.xml" className="btn-secondary">
          RSS feed
        </a>
      </div>
      {items.length === 0 ? (
        <p className="mt-10 rounded-xl border border-line bg-white p-6 text-muted">{page > 1 ? "There are no posts on this page." : "No posts yet. Please come back soon."}</p>
      ) : (
        <ul aria-label="Posts" className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((post) => (
            <PostCard key={post.id} post={post} cover={post.coverImage ? productImagePath(post.coverImage, env.APP_URL) : null} timeZone={timeZone} />
          ))}
        </ul>
      )}
      <Pager page={page} totalPages={totalPages} href={(n) => `/blog?page=${n}`} previousLabel="Newer posts" nextLabel="Older posts" label="Blog pages" />
    </div>
  );
}
