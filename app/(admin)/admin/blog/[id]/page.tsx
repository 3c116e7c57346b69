import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { AdminHeading } from "@/components/admin/list-filters";
import { noticeFrom } from "@/components/dashboard/notices";
import { FormAlert } from "@/components/forms/form-alert";
import { env } from "@/lib/env";
import { getPostForAdmin } from "@/lib/services/content";
import { NotFoundError } from "@/lib/services/errors";
import { productImagePath } from "@/lib/shop/image-path";
import { requireAdminContext } from "../../admin-context";
import { deletePostAction } from "../actions";
import { PostEditor } from "../post-editor";

export const metadata: Metadata = { title: "Edit post" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** One post's editor, with its public link when published and a confirmed delete. */
export default async function EditPostPage({ params, searchParams }: Props) {
  const { id } = await params;
  const ctx = await requireAdminContext(`/admin/blog/${encodeURIComponent(id)}`);
  if (!z.uuid().safeParse(id).success) notFound();
  const post = await getPostForAdmin(ctx, id).catch((error: unknown) => {
    if (error instanceof NotFoundError) notFound();
    throw error;
  });
  const notice = noticeFrom(await searchParams, {
    created: { tone: "success", text: post.published ? "The post is created and published." : "The post is created as a draft." },
    saved: { tone: "success", text: post.published ? "The post is saved and published." : "The post is saved as a draft." },
  });

  return (
    <div className="flex flex-col gap-6">
      <Link href="/admin/blog" className="self-start text-sm font-semibold text-brand-700 underline hover:text-brand-800">
        ← All posts
      </Link>
      <AdminHeading title={post.title} intro={post.published ? "Published: changes show on the blog as soon as you save." : "A draft: only admins can see it."} />
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}
      {post.published ? (
        <p>
          <Link href={`/blog/${post.slug}`} className="font-semibold text-brand-700 underline hover:text-brand-800">
            View the post on the blog
          </Link>
        </p>
      ) : null}
      <div className="rounded-xl border border-line bg-white p-5 shadow-sm">
        <PostEditor key={post.updatedAt} post={{ ...post, coverImage: post.coverImage ? productImagePath(post.coverImage, env.APP_URL) : null }} />
      </div>
      <details className="rounded-xl border border-danger-700 bg-white p-5">
        <summary className="min-h-11 cursor-pointer py-2 font-semibold text-danger-700">Delete this post…</summary>
        <form action={deletePostAction} aria-label="Delete the post" className="mt-3 flex flex-col gap-3">
          <input type="hidden" name="postId" value={post.id} />
          <p className="text-ink">
            “{post.title}” will be removed for good{post.published ? ", from the blog and the RSS feed too" : ""}. To hide it but keep it, untick Published instead.
          </p>
          <button type="submit" className="btn self-start bg-danger-700 text-white hover:bg-red-800">
            Delete the post permanently
          </button>
        </form>
      </details>
    </div>
  );
}
