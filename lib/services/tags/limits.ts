import { and, count, eq, ne } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { UnprocessableError } from "@/lib/services/errors";

export type Tier = "FREE" | "PRO" | "PREMIUM";

/** Tags a user may hold that are not DEACTIVATED, by subscription tier. */
export const TIER_TAG_LIMITS: Readonly<Record<Tier, number>> = { FREE: 5, PRO: 50, PREMIUM: 500 };

export async function countedTags(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(schema.tags)
    .where(and(eq(schema.tags.ownerId, userId), ne(schema.tags.status, "DEACTIVATED")));
  return row?.n ?? 0;
}

/** 422 with `{ tier, limit }` when `adding` more counted tags would pass the tier's limit. */
export async function assertWithinTierLimit(db: Executor, userId: string, tier: Tier, adding = 1): Promise<void> {
  const limit = TIER_TAG_LIMITS[tier];
  // Serialises a user's concurrent claims/reactivations (inside the caller's transaction): without the
  // lock, two requests could both count 4 and both take the 5th place.
  await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, userId)).for("update");
  if ((await countedTags(db, userId)) + adding > limit) {
    throw new UnprocessableError(`Your ${tier} plan allows ${limit} active tags. Upgrade or deactivate a tag first.`, { tier, limit });
  }
}
