import { and, eq, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import type { RewardOffer } from "./schemas";

/**
 * The rewards domain's reads on a bare database handle (or an open transaction): a tag's ACTIVE reward.
 * Routes, actions and pages use the verbs in index.ts instead.
 */

/** Amounts are stored in minor units (cents) and answered in major units. */
export const toMajor = (minor: number) => minor / 100;

const activeRewardQueries = new WeakMap<Executor, ReturnType<typeof prepareActiveReward>>();

/** Every scan reads it: a prepared statement (db/prepared.ts). */
function prepareActiveReward(db: Executor) {
  return db
    .select({ amountMinor: schema.rewards.amountMinor, currency: schema.rewards.currency })
    .from(schema.rewards)
    .where(and(eq(schema.rewards.tagId, sql.placeholder("tagId")), eq(schema.rewards.ownerId, sql.placeholder("ownerId")), eq(schema.rewards.status, "ACTIVE")))
    .limit(1)
    .prepare("active_reward_of_owner");
}

/**
 * The tag's ACTIVE reward offered by `ownerId`, its current owner (amount in major units and currency),
 * else null: the scan view's `reward` and the poster's. Asking by owner means a reward someone else
 * offered (the owner before a transfer) is never shown as the current owner's.
 */
export async function activeReward(db: Executor, tagId: string, ownerId: string): Promise<RewardOffer | null> {
  const [row] = await preparedFor(activeRewardQueries, db, prepareActiveReward).execute({ tagId, ownerId });
  return row ? { amount: toMajor(row.amountMinor), currency: row.currency } : null;
}
