import { and, count, desc, eq, ne, notInArray, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Tag } from "@/db/schema";
import { getUserById } from "@/lib/services/auth";
import { ForbiddenError, InvalidTransitionError, UnprocessableError } from "@/lib/services/errors";
import { generateTagCode, newEncryptedId } from "./codes";
import { allowedTransitions, isAllowedTransition, type TagStatus } from "./transitions";

/**
 * The tags domain's reads and writes on a bare database handle (or an open transaction): the building
 * blocks its verbs, the other domains' verbs (profiles, vehicles) and the seed share. Routes, actions and
 * pages use the verbs in lib/services/tags (index.ts) instead.
 */

export async function tagById(db: Executor, tagId: string): Promise<Tag | undefined> {
  const [tag] = await db.select().from(schema.tags).where(eq(schema.tags.id, tagId));
  return tag;
}

/**
 * Inserts `count` new PENDING_SETUP tags with fresh codes and encrypted ids (retrying the rare code
 * collision): unowned inventory (admin minting), or already the buyer's when `ownerId` is given (a paid
 * order's tags, recorded with a tag event naming `reason`; no tier limit applies to bought tags).
 */
export async function insertNewTags(db: Executor, input: { count: number; tagType?: Tag["tagType"]; ownerId?: string; reason?: string }): Promise<Tag[]> {
  const minted: Tag[] = [];
  let remaining = input.count;
  while (remaining > 0) {
    const batch = Array.from({ length: remaining }, () => ({ code: generateTagCode(), encryptedId: newEncryptedId(), tagType: input.tagType ?? "GENERAL", ownerId: input.ownerId ?? null }));
    const rows = await db.insert(schema.tags).values(batch).onConflictDoNothing().returning();
    minted.push(...rows);
    remaining -= rows.length;
  }
  if (input.ownerId && minted.length) {
    await db.insert(schema.tagEvents).values(
      minted.map((tag) => ({ tagId: tag.id, fromStatus: null, toStatus: "PENDING_SETUP" as const, actorUserId: null, actorKind: "system", reason: input.reason ?? "minted for its owner" })),
    );
  }
  return minted;
}

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

/** The typed profile table of each tag type that has one. */
export const typedTables = {
  PET: schema.petProfiles,
  VEHICLE: schema.vehicleProfiles,
  DEVICE: schema.deviceProfiles,
  TRAVEL: schema.travelProfiles,
} as const;

/** Complete (docs/decisions/0014-tag-state-machine.md) when itemName is set and, for a typed tag, its typed profile is saved. */
export async function isProfileComplete(db: Executor, tag: Tag): Promise<boolean> {
  if (!tag.itemName?.trim()) return false;
  if (tag.tagType === "GENERAL") return true;
  const table = typedTables[tag.tagType];
  const [row] = await db.select({ tagId: table.tagId }).from(table).where(eq(table.tagId, tag.id));
  return Boolean(row);
}

export interface StatusChange {
  to: TagStatus;
  /** Who asked: a user (owner or admin) or the system (profile completion, subscription expiry). */
  actor: { kind: "user" | "admin" | "system"; userId?: string | null };
  reason?: string | null;
  lostMessage?: string | null;
  /** Vehicle report-stolen. */
  policeReportRef?: string | null;
  /**
   * An admin's moderation (a report's DEACTIVATE_TAG): an admin actor may move a tag to DEACTIVATED from
   * any status, outside the owners' table (a LOST tag carrying a scam message must come down too), and
   * from DEACTIVATED itself (the owner's own deactivation then becomes the moderators'). Such a tag is
   * held: its owner cannot reactivate it (403).
   */
  moderation?: boolean;
  /**
   * The end of a subscription (docs/decisions/0015-tag-inventory-and-limits.md): the system moves a tag beyond the new tier's limit to
   * EXPIRED from any counted status, outside the owners' table (which has no move into EXPIRED).
   */
  subscriptionExpiry?: boolean;
  now?: Date;
}

export const HELD_BY_MODERATION = "Our moderators deactivated this tag. Contact support to have the decision reviewed.";

/** Whether the tag's latest move to DEACTIVATED was an admin's (moderation), which its owner may not undo. */
export async function heldByModeration(db: Executor, tagId: string): Promise<boolean> {
  const [latest] = await db
    .select({ actorKind: schema.tagEvents.actorKind })
    .from(schema.tagEvents)
    .where(and(eq(schema.tagEvents.tagId, tagId), eq(schema.tagEvents.toStatus, "DEACTIVATED")))
    .orderBy(desc(schema.tagEvents.createdAt))
    .limit(1);
  return latest?.actorKind === "admin";
}

/**
 * The one function that changes a tag's status. Refuses any move the table does not list (same
 * status included) with INVALID_TRANSITION; PENDING_SETUP → ACTIVE needs a complete profile (422);
 * EXPIRED → ACTIVE needs a paid tier (403); a move back to a counted status respects the tier limit
 * (422); an admin's moderation may deactivate from any status, and its owner cannot then reactivate
 * the tag (403). Records the move in tag_events. Run inside the caller's transaction, with the tag locked.
 */
export async function changeTagStatus(db: Executor, tag: Tag, change: StatusChange): Promise<Tag> {
  const from = tag.status;
  const to = change.to;
  const moderated = change.moderation === true && change.actor.kind === "admin" && to === "DEACTIVATED";
  const expiring = change.subscriptionExpiry === true && change.actor.kind === "system" && to === "EXPIRED" && from !== "DEACTIVATED" && from !== "EXPIRED";
  if (!moderated && !expiring && !isAllowedTransition(from, to)) {
    throw new InvalidTransitionError(`A ${from} tag cannot become ${to}.`, { from, to, allowed: allowedTransitions(from) });
  }
  if (from === "DEACTIVATED" && change.actor.kind === "user" && (await heldByModeration(db, tag.id))) throw new ForbiddenError(HELD_BY_MODERATION);
  if (to === "ACTIVE" && tag.ownerId) {
    // An EXPIRED tag may have expired before its profile was ever completed.
    if ((from === "PENDING_SETUP" || from === "EXPIRED") && !(await isProfileComplete(db, tag))) {
      throw new UnprocessableError("Complete the profile (item name and the typed profile) before activating the tag.");
    }
    const owner = await getUserById(db, tag.ownerId);
    if (from === "EXPIRED" && owner.subscription === "FREE") throw new ForbiddenError("Upgrade to PRO to reactivate an expired tag.");
    if (from === "DEACTIVATED" || from === "EXPIRED") await assertWithinTierLimit(db, tag.ownerId, owner.subscription);
  }
  const now = change.now ?? new Date();
  const updates: Partial<typeof schema.tags.$inferInsert> = { status: to };
  if (to === "LOST" || to === "STOLEN") updates.lostMessage = change.lostMessage ?? tag.lostMessage;
  if (to === "ACTIVE" || to === "FOUND" || to === "DEACTIVATED") Object.assign(updates, { lostMessage: null, lastSeenPlace: null, lastSeenWhen: null });
  if (to === "ACTIVE" && !tag.activatedAt) updates.activatedAt = now;
  if (to === "STOLEN") {
    updates.stolenReportedAt = now;
    updates.policeReportRef = change.policeReportRef ?? null;
  } else if (from === "STOLEN") {
    updates.stolenReportedAt = null;
    updates.policeReportRef = null;
  }
  const [updated] = await db.update(schema.tags).set(updates).where(eq(schema.tags.id, tag.id)).returning();
  await db.insert(schema.tagEvents).values({
    tagId: tag.id,
    fromStatus: from,
    toStatus: to,
    actorUserId: change.actor.userId ?? null,
    actorKind: change.actor.kind,
    reason: change.reason ?? null,
    createdAt: now,
  });
  return updated!;
}

/** After a profile save: a PENDING_SETUP tag whose profile became complete moves to ACTIVE by itself. */
export async function activateIfComplete(db: Executor, tag: Tag, actorUserId: string): Promise<Tag> {
  if (tag.status !== "PENDING_SETUP" || !tag.ownerId || !(await isProfileComplete(db, tag))) return tag;
  return changeTagStatus(db, tag, { to: "ACTIVE", actor: { kind: "system", userId: actorUserId }, reason: "profile completed" });
}

/**
 * docs/decisions/0015-tag-inventory-and-limits.md: when a subscription ends and the user holds more tags than the new tier allows, the
 * most recently activated ones beyond the limit expire (tags never activated count as the most recent).
 * DEACTIVATED tags are not counted and EXPIRED ones are already out. Locks the user's tags; run inside the
 * caller's transaction. Answers the tags it expired (none when within the limit: a repeat changes nothing).
 */
export async function expireTagsBeyondTierLimit(db: Executor, userId: string, tier: Tier, reason: string, now = new Date()): Promise<Tag[]> {
  const limit = TIER_TAG_LIMITS[tier];
  const live = await db
    .select()
    .from(schema.tags)
    .where(and(eq(schema.tags.ownerId, userId), notInArray(schema.tags.status, ["DEACTIVATED", "EXPIRED"])))
    .orderBy(sql`${schema.tags.activatedAt} asc nulls last`, schema.tags.createdAt, schema.tags.id)
    .for("update");
  const expired: Tag[] = [];
  for (const tag of live.slice(limit)) {
    expired.push(await changeTagStatus(db, tag, { to: "EXPIRED", actor: { kind: "system", userId: null }, reason, subscriptionExpiry: true, now }));
  }
  return expired;
}

/**
 * Switches off the tag's phone relay (frees its PIN) in a hand-over's transaction: a transfer's acceptance
 * or a release. The relay never follows a tag (docs/relay.md); it lives here, below the relay domain, so
 * the tags domain calls it without importing the relay, which sits above messages.
 */
export async function switchOffTagRelay(db: Executor, tagId: string): Promise<void> {
  await db.update(schema.tagRelays).set({ enabled: false }).where(eq(schema.tagRelays.tagId, tagId));
}
