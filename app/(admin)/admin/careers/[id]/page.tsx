import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { AdminHeading } from "@/components/admin/list-filters";
import { noticeFrom } from "@/components/dashboard/notices";
import { FormAlert } from "@/components/forms/form-alert";
import { getPositionForAdmin } from "@/lib/services/content";
import { NotFoundError } from "@/lib/services/errors";
import { requireAdminContext } from "../../admin-context";
import { deletePositionAction } from "../actions";
import { PositionEditor } from "../position-editor";

export const metadata: Metadata = { title: "Edit position" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** One position's editor, with its public link when open and a confirmed delete. */
export default async function EditPositionPage({ params, searchParams }: Props) {
  const { id } = await params;
  const ctx = await requireAdminContext(`/admin/careers/${encodeURIComponent(id)}`);
  if (!z.uuid().safeParse(id).success) notFound();
  const position = await getPositionForAdmin(ctx, id).catch((error: unknown) => {
    if (error instanceof NotFoundError) notFound();
    throw error;
  });
  const notice = noticeFrom(await searchParams, {
    created: { tone: "success", text: position.open ? "The position is created and open." : "The position is created, closed." },
    saved: { tone: "success", text: position.open ? "The position is saved and open." : "The position is saved, closed." },
  });

  return (
    <div className="flex flex-col gap-6">
      <Link href="/admin/careers" className="self-start text-sm font-semibold text-brand-700 underline hover:text-brand-800">
        ← All positions
      </Link>
      <AdminHeading title={position.title} intro={position.open ? "Open: shown on the careers page." : "Closed: only admins can see it."} />
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}
      {position.open ? (
        <p>
          <Link href={`/careers/${position.id}`} className="font-semibold text-brand-700 underline hover:text-brand-800">
            View the position on the careers page
          </Link>
        </p>
      ) : null}
      <div className="rounded-xl border border-line bg-white p-5 shadow-sm">
        <PositionEditor key={position.updatedAt} position={position} />
      </div>
      <details className="rounded-xl border border-danger-700 bg-white p-5">
        <summary className="min-h-11 cursor-pointer py-2 font-semibold text-danger-700">Delete this position…</summary>
        <form action={deletePositionAction} aria-label="Delete the position" className="mt-3 flex flex-col gap-3">
          <input type="hidden" name="positionId" value={position.id} />
          <p className="text-ink">“{position.title}” will be removed for good. To hide it but keep it, untick Open instead.</p>
          <button type="submit" className="btn self-start bg-danger-700 text-white hover:bg-red-800">
            Delete the position permanently
          </button>
        </form>
      </details>
    </div>
  );
}
