import type { Metadata } from "next";
import Link from "next/link";
import { AdminHeading } from "@/components/admin/list-filters";
import { requireAdminContext } from "../../admin-context";
import { PostEditor } from "../post-editor";

export const metadata: Metadata = { title: "New post" };

export default async function NewPostPage() {
  await requireAdminContext("/admin/blog/new");
  return (
    <div className="flex flex-col gap-6">
      <Link href="/admin/blog" className="self-start text-sm font-semibold text-brand-700 underline hover:text-brand-800">
        ← All posts
      </Link>
      <AdminHeading title="New post" intro="Saved as a draft unless you tick Published. The preview shows the post as readers will see it." />
      <div className="rounded-xl border border-line bg-white p-5 shadow-sm">
        <PostEditor />
      </div>
    </div>
  );
}
