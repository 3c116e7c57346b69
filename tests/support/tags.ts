import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import type { Tag } from "@/db/schema";
import { POST as activateRoute } from "@/app/api/v1/tags/activate/route";
import { systemContext } from "@/lib/services/context";
import { mintTags, type MintedTag, type TagType } from "@/lib/services/tags/inventory";
import type { TagRecord } from "@/lib/services/tags/records";
import type { TagStatus } from "@/lib/services/tags/transitions";
import { bearer } from "./auth";
import { apiRequest, call, json } from "./http";

export type Tier = "FREE" | "PRO" | "PREMIUM";

/** Unowned PENDING_SETUP inventory, minted through the service as the system would. */
export function mintTestTags(count = 1, tagType?: TagType): Promise<MintedTag[]> {
  return mintTags(systemContext(getDatabase().db), { count, tagType });
}

/** POST /tags/activate as the account (bearer): the raw Response. */
export function activateRequest(accessToken: string, body: Record<string, unknown>): Promise<Response> {
  return call(activateRoute, apiRequest("/api/v1/tags/activate", { method: "POST", headers: bearer(accessToken), body }));
}

/**
 * Mints one tag and claims it for the account through the real activate route (201, PENDING_SETUP).
 * With `status`, the tag is then put into that status by a direct update (test setup, no event row).
 */
export async function claimTestTag(
  account: { accessToken: string },
  options: { tagType?: TagType; itemName?: string; status?: TagStatus } = {},
): Promise<TagRecord> {
  const [minted] = await mintTestTags(1);
  const response = await activateRequest(account.accessToken, { code: minted!.code, tagType: options.tagType, itemName: options.itemName });
  if (response.status !== 201) throw new Error(`activate failed: ${response.status} ${await response.text()}`);
  const record = (await json<{ data: TagRecord }>(response)).data;
  if (!options.status) return record;
  await forceTagStatus(record.id, options.status);
  return { ...record, status: options.status };
}

/** Test setup: sets a tag's status directly, bypassing the transition table. */
export async function forceTagStatus(tagId: string, status: TagStatus, extra: Partial<typeof schema.tags.$inferInsert> = {}): Promise<void> {
  await getDatabase().db.update(schema.tags).set({ status, ...extra }).where(eq(schema.tags.id, tagId));
}

/** Test setup: a user's subscription tier. */
export async function setTier(userId: string, tier: Tier): Promise<void> {
  await getDatabase().db.update(schema.users).set({ subscription: tier }).where(eq(schema.users.id, userId));
}

export async function tagRow(tagId: string): Promise<Tag | undefined> {
  const [row] = await getDatabase().db.select().from(schema.tags).where(eq(schema.tags.id, tagId));
  return row;
}

export function tagEventsOf(tagId: string) {
  return getDatabase().db.select().from(schema.tagEvents).where(eq(schema.tagEvents.tagId, tagId)).orderBy(schema.tagEvents.createdAt);
}

/**
 * Test setup without HTTP: mints a tag and gives it to the user directly in the database, in the
 * given status (default PENDING_SETUP), type and item name. No event rows are written.
 */
export async function giveTestTag(userId: string, options: { tagType?: TagType; itemName?: string | null; status?: TagStatus } = {}): Promise<Tag> {
  const [minted] = await mintTestTags(1, options.tagType);
  const [row] = await getDatabase()
    .db.update(schema.tags)
    .set({ ownerId: userId, status: options.status ?? "PENDING_SETUP", itemName: options.itemName ?? null })
    .where(eq(schema.tags.id, minted!.id))
    .returning();
  return row!;
}
