import { z } from "zod";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { UnprocessableError } from "@/lib/services/errors";
import { NAME_MAX, SHORT_TEXT_MAX } from "@/lib/services/profiles/schemas";
import { ownedTag } from "@/lib/services/tags/access";
import { changeTagStatus } from "@/lib/services/tags/queries";

/**
 * POST /vehicles/:tagId/report-stolen and the dashboard's "report stolen" form. The police report reference
 * is required: the public VIN check shows a stolen report only with one on file (anyone can put any VIN
 * on a profile, so a report without one would let anyone brand someone else's car).
 */
export const reportStolenInput = z.object({
  policeReportRef: z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? "Required: the reference of your report to the police." : "Must be a string.") })
    .trim()
    .min(1, "Required: the reference of your report to the police.")
    .max(NAME_MAX, `At most ${NAME_MAX} characters.`)
    .meta({ description: "The reference of the report made to the police. Kept private: the VIN check says only that one is on file.", example: "MET-2026-004512" }),
  lostMessage: z
    .string({ error: "Must be a string." })
    .trim()
    .max(SHORT_TEXT_MAX, `At most ${SHORT_TEXT_MAX} characters.`)
    .nullable()
    .optional()
    .transform((value) => (value === "" ? null : value))
    .meta({ description: "Shown to whoever scans the tag, with the stolen alert", example: "Stolen from Elm Street on 14 March. Please call the police." }),
});
export type ReportStolenInput = z.output<typeof reportStolenInput>;

export const reportStolenResultSchema = z.object({
  tagId: z.uuid(),
  status: z.literal("STOLEN"),
  policeReportRef: z.string(),
  reportedAt: z.iso.datetime(),
  message: z.string(),
});

export type ReportStolenResult = z.infer<typeof reportStolenResultSchema>;

/**
 * A VEHICLE tag only (another type is 422: a valid request a business rule refuses); ACTIVE or LOST →
 * STOLEN through changeTagStatus, any other status 400 INVALID_TRANSITION. Stores the reference with the
 * report's date. Scans of the tag then show the stolen alert and the VIN check answers stolen.
 */
export async function reportVehicleStolen(ctx: ServiceContext, tagId: string, input: ReportStolenInput): Promise<ReportStolenResult> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, tagId, { lock: true });
    if (tag.tagType !== "VEHICLE") throw new UnprocessableError("Only a VEHICLE tag can be reported stolen here; use the tag status change for other tags.");
    const updated = await changeTagStatus(tx.db, tag, {
      to: "STOLEN",
      actor: { kind: "user", userId },
      reason: "vehicle reported stolen",
      policeReportRef: input.policeReportRef,
      lostMessage: input.lostMessage,
    });
    return {
      tagId: updated.id,
      status: "STOLEN",
      policeReportRef: updated.policeReportRef!,
      reportedAt: updated.stolenReportedAt!.toISOString(),
      message: "The vehicle was reported stolen. Scans of its tag now show a stolen alert, and the public VIN check says a police report reference is on file.",
    };
  });
}
