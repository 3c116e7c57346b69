import type { Metadata } from "next";
import { AdminEditorPage } from "@/components/admin/editor-page";
import { requireAdminContext } from "../../admin-context";
import { PostEditor } from "../post-editor";

export const metadata: Metadata = { title: "New post" };

export default async function NewPostPage() {
  await requireAdminContext("/admin/blog/new");
  return <AdminEditorPage back={{ href: "/admin/blog", label: "All posts" }} title="New post" intro="Saved as a draft unless you tick Published. The preview shows the post as readers will see it." editor={<PostEditor />} />;
}
