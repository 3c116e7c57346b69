import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { inLostMode, ownedTag, toTagRecord, type TagRecord } from "@/lib/services/tags";
import { setTagStatus } from "@/lib/services/vehicles";
import { saveTagReward, type TagRewardOutcome } from "./rewards";
import type { LostModeInput } from "./schemas";

export interface LostModeResult {
  tag: TagRecord;
  /** The save turned lost mode on (the tag moved to LOST). */
  turnedOn: boolean;
  reward: TagRewardOutcome;
}

/**
 * Lost mode's one form, saved in one transaction (docs/reunion.md, Lost mode). Out of lost mode it turns it
 * on: the tag becomes LOST through setTagStatus (the transition table's rules: only an ACTIVE tag can be
 * lost) with the message for finders. In lost mode (LOST, or STOLEN with its alert) it changes the message.
 * Either way the reward is saved with it through saveTagReward (offered, changed, or left as it is); when
 * any part is refused, nothing is written. The tag row is locked first, so concurrent saves follow one
 * another: the first turns lost mode on and offers the reward, the next find them there and change nothing.
 */
export async function saveLostMode(ctx: ServiceContext, tagId: string, input: LostModeInput): Promise<LostModeResult> {
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, tagId, { lock: true });
    const on = inLostMode(tag.status);
    let record: TagRecord;
    if (!on) {
      record = await setTagStatus(tx, tagId, { status: "LOST", lostMessage: input.lostMessage ?? null });
    } else if (input.lostMessage !== undefined && input.lostMessage !== tag.lostMessage) {
      const [updated] = await tx.db.update(schema.tags).set({ lostMessage: input.lostMessage }).where(eq(schema.tags.id, tag.id)).returning();
      record = toTagRecord(updated!);
    } else {
      record = toTagRecord(tag);
    }
    const reward = input.reward === undefined ? "unchanged" : (await saveTagReward(tx, tagId, input.reward)).outcome;
    return { tag: record, turnedOn: !on, reward };
  });
}
