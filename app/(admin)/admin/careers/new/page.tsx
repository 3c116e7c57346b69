import type { Metadata } from "next";
import Link from "next/link";
import { AdminHeading } from "@/components/admin/list-filters";
import { requireAdminContext } from "../../admin-context";
import { PositionEditor } from "../position-editor";

export const metadata: Metadata = { title: "New position" };

export default async function NewPositionPage() {
  await requireAdminContext("/admin/careers/new");
  return (
    <div className="flex flex-col gap-6">
      <Link href="/admin/careers" className="self-start text-sm font-semibold text-brand-700 underline hover:text-brand-800">
        ← All positions
      </Link>
      <AdminHeading title="New position" intro="Open positions are shown on the careers page at once; untick Open to prepare one first." />
      <div className="rounded-xl border border-line bg-white p-5 shadow-sm">
        <PositionEditor />
      </div>
    </div>
  );
}
