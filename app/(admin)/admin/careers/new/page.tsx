import type { Metadata } from "next";
import { AdminEditorPage } from "@/components/admin/editor-page";
import { requireAdminContext } from "../../admin-context";
import { PositionEditor } from "../position-editor";

export const metadata: Metadata = { title: "New position" };

export default async function NewPositionPage() {
  await requireAdminContext("/admin/careers/new");
  return <AdminEditorPage back={{ href: "/admin/careers", label: "All positions" }} title="New position" intro="Open positions are shown on the careers page at once; untick Open to prepare one first." editor={<PositionEditor />} />;
}
