import type { Metadata } from "next";
import Link from "next/link";
import { AdminHeading, ResultCount } from "@/components/admin/list-filters";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { Pager, pageParam } from "@/components/dashboard/pager";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { FormAlert } from "@/components/forms/form-alert";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { listAllPosts, type AdminBlogPost } from "@/lib/services/content";
import { requireAdminContext } from "../admin-context";

export const metadata: Metadata = { title: "Blog posts" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PER_PAGE = 20;
const BLOG_PATH = "/admin/blog";

/** Every post, drafts too, most recently changed first, each linking to its editor. */
export default async function AdminBlogPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext(BLOG_PATH);
  const params = await searchParams;
  const page = pageParam(params.page);
  const [{ items, total }, timeZone] = await Promise.all([listAllPosts(ctx, { page, limit: PER_PAGE }), viewerTimeZone()]);
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  const notice = noticeFrom(params, {
    deleted: { tone: "success", text: "The post was deleted." },
    missing: { tone: "error", text: "That post no longer exists." },
  });

  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <AdminHeading title="Blog posts" intro="Drafts are seen only here; published posts are on the blog and in its RSS feed." />
        <Link href={`${BLOG_PATH}/new`} className="btn-primary">
          New post
        </Link>
      </div>
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}
      <ResultCount total={total} page={page} totalPages={totalPages} noun={["post", "posts"]} />
      {items.length ? (
        <ul aria-label="Posts" className="flex flex-col gap-3">
          {items.map((post) => (
            <PostRow key={post.id} post={post} timeZone={timeZone} />
          ))}
        </ul>
      ) : null}
      <Pager page={page} totalPages={totalPages} href={(n) => `${BLOG_PATH}?page=${n}`} label="Post pages" className="" />
    </div>
  );
}

function PostRow({ post, timeZone }: { post: AdminBlogPost; timeZone: string }) {
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-line bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <Link href={`${BLOG_PATH}/${post.id}`} className="text-lg font-semibold break-words text-brand-700 underline-offset-4 hover:text-brand-800 hover:underline">
            {post.title}
          </Link>
          <StatusBadge
            status={post.published ? "PUBLISHED" : "DRAFT"}
            label={post.published ? "Published" : "Draft"}
            tone={post.published ? "border-green-700 bg-green-50 text-green-900" : "border-slate-500 bg-slate-100 text-slate-800"}
            kind="State"
          />
        </div>
        <p className="font-mono text-sm break-all text-muted">/blog/{post.slug}</p>
        <p className="text-sm text-muted">
          {post.published && post.publishedAt ? (
            <>
              Published <DateTime iso={post.publishedAt} timeZone={timeZone} dateOnly />
            </>
          ) : (
            <>
              Changed <DateTime iso={post.updatedAt} timeZone={timeZone} />
            </>
          )}{" "}
          · {post.author}
        </p>
      </div>
      <Link href={`${BLOG_PATH}/${post.id}`} className="btn-secondary shrink-0">
        Edit<span className="sr-only"> {post.title}</span>
      </Link>
    </li>
  );
}
