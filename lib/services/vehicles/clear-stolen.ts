import { eq } from "drizzle-orm";
import { z } from "zod";
import { schema } from "@/db/client";
import { recordAudit } from "@/lib/services/audit";
import { requireAdmin, type ServiceContext, withTransaction } from "@/lib/services/context";
import { ConflictError, NotFoundError } from "@/lib/services/errors";
import { notify } from "@/lib/services/notifications";
import { optionalText, SHORT_TEXT_MAX } from "@/lib/validation/text-fields";
import { changeTagStatus } from "@/lib/services/tags";

export const clearStolenInput = z.object({
  note: optionalText(SHORT_TEXT_MAX).meta({ description: "Why, for the audit log and the owner's notification", example: "The VIN belongs to another owner's vehicle (registration documents checked)." }),
});
export type ClearStolenInput = z.output<typeof clearStolenInput>;

export const stolenClearedSchema = z
  .object({
    tagId: z.uuid(),
    status: z.literal("ACTIVE"),
    clearedAt: z.iso.datetime(),
    message: z.string(),
  })
  .meta({ id: "StolenCleared" });
export type StolenCleared = z.infer<typeof stolenClearedSchema>;

/**
 * POST /admin/tags/:tagId/clear-stolen: a moderator takes down a stolen report (one that should not stand,
 * such as someone else's VIN reported stolen): the tag goes STOLEN → ACTIVE as the admin's move, its police
 * reference, report date and stolen message are removed, so scans drop the alert and the VIN check answers
 * "not stolen". Audited (before and after, the reference included, so the decision can be reviewed) and the
 * owner is told. A tag that is not STOLEN is 409; an unknown one 404.
 */
export async function clearStolenFlag(ctx: ServiceContext, tagId: string, input: ClearStolenInput): Promise<StolenCleared> {
  const admin = requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const [tag] = await tx.db.select().from(schema.tags).where(eq(schema.tags.id, tagId)).for("update");
    if (!tag || !tag.ownerId) throw new NotFoundError("Tag not found.");
    if (tag.status !== "STOLEN") throw new ConflictError("This tag is not reported stolen.", { status: tag.status });
    const now = new Date();
    const note = input.note ?? null;
    const updated = await changeTagStatus(tx.db, tag, { to: "ACTIVE", actor: { kind: "admin", userId: admin.userId }, reason: note ? `stolen report cleared: ${note}` : "stolen report cleared", now });
    const snapshot = (row: typeof tag) => ({ status: row.status, policeReportRef: row.policeReportRef, stolenReportedAt: row.stolenReportedAt, lostMessage: row.lostMessage });
    await recordAudit(tx, { action: "tag.clear_stolen", entityType: "tag", entityId: tag.id, before: snapshot(tag), after: { ...snapshot(updated), note } });
    await notify(tx, {
      userId: tag.ownerId,
      type: "TAG_STATUS_CHANGED",
      title: "A stolen report was cleared",
      body: `Our moderators cleared the stolen report on your tag “${tag.itemName ?? "Unnamed tag"}”: it is active again, its scans no longer show a stolen alert and the VIN check no longer reports it stolen.${note ? ` ${note}` : ""} Contact support if you think this is wrong.`,
      data: { tagId: tag.id, tagStatus: "ACTIVE", action: "CLEAR_STOLEN" },
    });
    return { tagId: tag.id, status: "ACTIVE", clearedAt: now.toISOString(), message: "The stolen report was cleared and the owner told." };
  });
}
