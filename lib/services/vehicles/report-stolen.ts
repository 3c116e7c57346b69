import { z } from "zod";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { UnprocessableError } from "@/lib/services/errors";
import { ownedTag } from "@/lib/services/tags/access";
import { changeTagStatus } from "@/lib/services/tags/queries";

export const reportStolenResultSchema = z.object({
  tagId: z.uuid(),
  status: z.literal("STOLEN"),
  policeReportRef: z.string().nullable(),
  reportedAt: z.iso.datetime(),
  message: z.string(),
});

export type ReportStolenResult = z.infer<typeof reportStolenResultSchema>;

/**
 * POST /vehicles/:tagId/report-stolen: a VEHICLE tag only (another type is 422: a valid request a
 * business rule refuses); ACTIVE or LOST → STOLEN through changeTagStatus, any other status 400
 * INVALID_TRANSITION. Scans of the tag then show the stolen alert and the VIN check answers stolen.
 */
export async function reportVehicleStolen(ctx: ServiceContext, tagId: string, input: { policeReportRef?: string | null }): Promise<ReportStolenResult> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, tagId, { lock: true });
    if (tag.tagType !== "VEHICLE") throw new UnprocessableError("Only a VEHICLE tag can be reported stolen here; use the tag status change for other tags.");
    const updated = await changeTagStatus(tx.db, tag, {
      to: "STOLEN",
      actor: { kind: "user", userId },
      reason: "vehicle reported stolen",
      policeReportRef: input.policeReportRef ?? null,
    });
    return {
      tagId: updated.id,
      status: "STOLEN",
      policeReportRef: updated.policeReportRef,
      reportedAt: (updated.stolenReportedAt ?? new Date()).toISOString(),
      message: "The vehicle was reported stolen. Scans of its tag now show a stolen alert.",
    };
  });
}
