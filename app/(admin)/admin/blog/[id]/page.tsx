import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AdminDeleteSection, AdminEditorPage } from "@/components/admin/editor-page";
import { noticeFrom } from "@/components/dashboard/notices";
import { env } from "@/lib/env";
import { idParams } from "@/lib/http/params";
import { pageParams } from "@/lib/http/page-input";
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
  const ctx = await requireAdminContext(`/admin/blog/${encodeURIComponent((await params).id)}`);
  const { id } = await pageParams({ params: idParams }, params);
  const post = await getPostForAdmin(ctx, id).catch((error: unknown) => {
    if (error instanceof NotFoundError) notFound();
    throw error;
  });
  const notice = noticeFrom(await searchParams, {
    created: { tone: "success", text: post.published ? "The post is created and published." : "The post is created as a draft." },
    saved: { tone: "success", text: post.published ? "The post is saved and published." : "The post is saved as a draft." },
  });

  return (
    <AdminEditorPage
      back={{ href: "/admin/blog", label: "All posts" }}
      title={post.title}
      intro={post.published ? "Published: changes show on the blog as soon as you save." : "A draft: only admins can see it."}
      notice={notice}
      publicLink={post.published ? { href: `/blog/${post.slug}`, label: "View the post on the blog" } : null}
      editor={<PostEditor key={post.updatedAt} post={{ ...post, coverImage: post.coverImage ? productImagePath(post.coverImage, env.APP_URL) : null }} />}
    >
      <AdminDeleteSection
        summary="Delete this post…"
        formLabel="Delete the post"
        action={deletePostAction}
        field={{ name: "postId", value: post.id }}
        explanation={<>“{post.title}” will be removed for good{post.published ? ", from the blog and the RSS feed too" : ""}. To hide it but keep it, untick Published instead.</>}
        button="Delete the post permanently"
      />
    </AdminEditorPage>
  );
}
