import { eq } from "drizzle-orm";
import { z } from "zod";
import { schema } from "@/db/client";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { UnprocessableError } from "@/lib/services/errors";
import { NAME_MAX, optionalText, SHORT_TEXT_MAX } from "@/lib/validation/text-fields";
import { changeTagStatus, ownedTag } from "@/lib/services/tags";

/**
 * POST /vehicles/:tagId/report-stolen and the dashboard's "report stolen" form. The police report reference
 * stays optional (the API contract has it so, and a finder's scan should show the stolen alert at once), but
 * the public VIN check shows a stolen report only with one on file: anyone can put any VIN on a profile, so
 * a bare report would let anyone brand someone else's car for buyers.
 */
export const reportStolenInput = z.object({
  policeReportRef: z
    .string({ error: "Must be a string." })
    .trim()
    .max(NAME_MAX, `At most ${NAME_MAX} characters.`)
    .nullable()
    .optional()
    .transform((value) => (value ? value : null))
    .meta({
      description: "The reference of the report made to the police. Kept private: the VIN check says only that one is on file, and shows the vehicle as stolen only when one is.",
      example: "MET-2026-004512",
    }),
  lostMessage: optionalText(SHORT_TEXT_MAX).meta({ description: "Shown to whoever scans the tag, with the stolen alert", example: "Stolen from Elm Street on 14 March. Please call the police." }),
});
export type ReportStolenInput = z.output<typeof reportStolenInput>;

export const reportStolenResultSchema = z.object({
  tagId: z.uuid(),
  status: z.literal("STOLEN"),
  policeReportRef: z.string().nullable(),
  reportedAt: z.iso.datetime(),
  message: z.string(),
});

export type ReportStolenResult = z.infer<typeof reportStolenResultSchema>;

/**
 * A VEHICLE tag only (another type is 422: a valid request a business rule refuses); ACTIVE or LOST →
 * STOLEN through changeTagStatus, any other status 400 INVALID_TRANSITION, except a STOLEN tag with no
 * reference on file, which takes one. Stores the reference with the
 * report's date. Scans of the tag then show the stolen alert and the VIN check answers stolen.
 */
export async function reportVehicleStolen(ctx: ServiceContext, tagId: string, input: ReportStolenInput): Promise<ReportStolenResult> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, tagId, { lock: true });
    if (tag.tagType !== "VEHICLE") throw new UnprocessableError("Only a VEHICLE tag can be reported stolen here; use the tag status change for other tags.");
    // A report made without a reference (or a tag set STOLEN by a status change) gets one added later:
    // the only way back into the public VIN check without clearing the alert finders see.
    const addingReference = tag.status === "STOLEN" && !tag.policeReportRef && input.policeReportRef;
    const updated = addingReference
      ? (await tx.db.update(schema.tags).set({ policeReportRef: input.policeReportRef, stolenReportedAt: new Date(), ...(input.lostMessage !== undefined ? { lostMessage: input.lostMessage } : {}) }).where(eq(schema.tags.id, tag.id)).returning())[0]!
      : await changeTagStatus(tx.db, tag, {
      to: "STOLEN",
      actor: { kind: "user", userId },
      reason: "vehicle reported stolen",
      policeReportRef: input.policeReportRef,
      lostMessage: input.lostMessage,
    });
    return {
      tagId: updated.id,
      status: "STOLEN",
      policeReportRef: updated.policeReportRef,
      reportedAt: updated.stolenReportedAt!.toISOString(),
      message: updated.policeReportRef
        ? "The vehicle was reported stolen. Scans of its tag now show a stolen alert, and the public VIN check says a police report reference is on file."
        : "The vehicle was reported stolen. Scans of its tag now show a stolen alert. The public VIN check shows it as stolen only once you add the reference of your police report (send this report again with policeReportRef).",
    };
  });
}
