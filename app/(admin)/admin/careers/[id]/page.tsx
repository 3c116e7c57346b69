import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AdminDeleteSection, AdminEditorPage } from "@/components/admin/editor-page";
import { noticeFrom } from "@/components/dashboard/notices";
import { careerEndpoints } from "@/lib/http/endpoints/content";
import { pageParams } from "@/lib/http/page-input";
import { getPositionForAdmin } from "@/lib/services/content";
import { NotFoundError } from "@/lib/services/errors";
import { requireAdminContext } from "../../admin-context";
import { deletePositionAction } from "../actions";
import { PositionEditor } from "../position-editor";

export const metadata: Metadata = { title: "Edit position" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** One position's editor, with its public link when open and a confirmed delete. */
export default async function EditPositionPage({ params, searchParams }: Props) {
  const ctx = await requireAdminContext(`/admin/careers/${encodeURIComponent((await params).id)}`);
  const { id } = await pageParams(careerEndpoints.update, params);
  const position = await getPositionForAdmin(ctx, id).catch((error: unknown) => {
    if (error instanceof NotFoundError) notFound();
    throw error;
  });
  const notice = noticeFrom(await searchParams, {
    created: { tone: "success", text: position.open ? "The position is created and open." : "The position is created, closed." },
    saved: { tone: "success", text: position.open ? "The position is saved and open." : "The position is saved, closed." },
  });

  return (
    <AdminEditorPage
      back={{ href: "/admin/careers", label: "All positions" }}
      title={position.title}
      intro={position.open ? "Open: shown on the careers page." : "Closed: only admins can see it."}
      notice={notice}
      publicLink={position.open ? { href: `/careers/${position.id}`, label: "View the position on the careers page" } : null}
      editor={<PositionEditor key={position.updatedAt} position={position} />}
    >
      <AdminDeleteSection
        summary="Delete this position…"
        formLabel="Delete the position"
        action={deletePositionAction}
        field={{ name: "positionId", value: position.id }}
        explanation={<>“{position.title}” will be removed for good. To hide it but keep it, untick Open instead.</>}
        button="Delete the position permanently"
      />
    </AdminEditorPage>
  );
}
