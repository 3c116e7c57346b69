import { schema, type Executor } from "@/db/client";

export interface VinConflict {
  vin: string;
  /** The live vehicle tag holding the VIN, and its owner. */
  holder: { tagId: string; ownerId: string | null };
  /** The tag whose claim of the VIN was refused, and its owner. */
  claimant: { tagId: string; ownerId: string | null };
}

/**
 * Files the VIN_CONFLICT report of a refused VIN claim for the moderators, flagging both tags and owners:
 * either may be the one putting someone else's VIN on their profile (the first claim is not proof of
 * ownership). Filed by the system (no reporter, so neither owner sees it among their own reports). The
 * partial unique index keeps one open report per VIN and pair of tags, so repeating a refused claim
 * cannot flood the queue. Runs on its own, after the refused request's transaction has rolled back.
 */
export async function fileVinConflictReport(db: Executor, conflict: VinConflict): Promise<void> {
  await db
    .insert(schema.reports)
    .values({
      reporterId: null,
      type: "VIN_CONFLICT",
      description: `Two vehicle tags claim VIN ${conflict.vin}. The tag that holds it and the tag whose claim was refused are both flagged: ask each owner for the vehicle's registration documents, then deactivate the wrong tag or clear a stolen report that should not stand.`,
      vin: conflict.vin,
      tagId: conflict.holder.tagId,
      targetUserId: conflict.holder.ownerId,
      relatedTagId: conflict.claimant.tagId,
      relatedUserId: conflict.claimant.ownerId,
    })
    .onConflictDoNothing();
}
