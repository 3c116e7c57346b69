import type { Metadata } from "next";
import { AdminContentList, CONTENT_PER_PAGE } from "@/components/admin/content-list";
import { DateTime } from "@/components/dashboard/date-time";
import { pageParam } from "@/components/dashboard/pager";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { listAllPosts } from "@/lib/services/content";
import { requireAdminContext } from "../admin-context";

export const metadata: Metadata = { title: "Blog posts" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const BLOG_PATH = "/admin/blog";

/** Every post, drafts too, most recently changed first, each linking to its editor. */
export default async function AdminBlogPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext(BLOG_PATH);
  const params = await searchParams;
  const page = pageParam(params.page);
  const [{ items, total }, timeZone] = await Promise.all([listAllPosts(ctx, { page, limit: CONTENT_PER_PAGE }), viewerTimeZone()]);

  return (
    <AdminContentList
      path={BLOG_PATH}
      noun={["post", "posts"]}
      title="Blog posts"
      intro="Drafts are seen only here; published posts are on the blog and in its RSS feed."
      params={params}
      page={page}
      total={total}
      entries={items.map((post) => ({
        id: post.id,
        title: post.title,
        visible: post.published,
        badge: post.published ? { status: "PUBLISHED", label: "Published" } : { status: "DRAFT", label: "Draft" },
        details: (
          <>
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
          </>
        ),
      }))}
    />
  );
}
