import { and, count, eq, sql, type SQL } from "drizzle-orm";
import { schema } from "@/db/client";
import type { Tag } from "@/db/schema";
import { requireUser, type ServiceContext, withTransaction } from "@/lib/services/context";
import { ConflictError, DomainError, NotFoundError } from "@/lib/services/errors";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";
import { ownedTag } from "./access";
import { newEncryptedId, normalizeTagCode, scanUrl, formatTagCode } from "./codes";
import { toTagRecord, type TagRecord } from "./records";
import { activateIfComplete, assertWithinTierLimit, insertNewTags, switchOffTagRelay } from "./queries";
import { tagStatuses, type TagStatus } from "./transitions";
import { getUserById } from "@/lib/services/auth";
import { recordAudit } from "@/lib/services/audit";

export type TagType = Tag["tagType"];

export interface MintedTag {
  id: string;
  code: string;
  encryptedId: string;
  scanUrl: string;
}

/**
 * Admin minting: `count` unowned PENDING_SETUP tags with fresh codes (retrying the rare collision). An
 * admin's batch is audited (ids only: a printed code is what claims a tag); the system's (seed, scripts) is not.
 */
export async function mintTags(ctx: ServiceContext, input: { count: number; tagType?: TagType }): Promise<MintedTag[]> {
  return withTransaction(ctx, async (tx) => {
    const rows = await insertNewTags(tx.db, { count: input.count, tagType: input.tagType });
    if (ctx.actor.kind !== "system") {
      await recordAudit(tx, { action: "tag.batch_mint", entityType: "tag_batch", entityId: null, before: null, after: { count: rows.length, tagType: input.tagType ?? "GENERAL", tagIds: rows.map((row) => row.id) } });
    }
    return rows.map((row) => ({ id: row.id, code: formatTagCode(row.code), encryptedId: row.encryptedId, scanUrl: scanUrl(row.encryptedId) }));
  });
}

async function claim(ctx: ServiceContext, userId: string, rawCode: string, input: { tagType?: TagType; itemName?: string }): Promise<Tag> {
  const code = normalizeTagCode(rawCode);
  if (!code) throw new NotFoundError("No tag has this code. Check the code printed on the tag.");
  const [tag] = await ctx.db.select().from(schema.tags).where(eq(schema.tags.code, code)).for("update");
  if (!tag) throw new NotFoundError("No tag has this code. Check the code printed on the tag.");
  if (tag.ownerId) throw new ConflictError(tag.ownerId === userId ? "You have already activated this tag." : "This tag has already been activated.");
  const user = await getUserById(ctx.db, userId);
  await assertWithinTierLimit(ctx.db, userId, user.subscription);
  const [claimed] = await ctx.db
    .update(schema.tags)
    .set({ ownerId: userId, tagType: input.tagType ?? tag.tagType, itemName: input.itemName ?? null, status: "PENDING_SETUP" })
    .where(eq(schema.tags.id, tag.id))
    .returning();
  await ctx.db.insert(schema.tagEvents).values({ tagId: tag.id, fromStatus: null, toStatus: "PENDING_SETUP", actorUserId: userId, actorKind: "user", reason: "claimed" });
  return claimed!;
}

/** POST /tags/activate: claims an unowned tag by its printed code → PENDING_SETUP until the profile is complete. */
export async function activateTag(ctx: ServiceContext, input: { code: string; tagType?: TagType; itemName?: string }): Promise<TagRecord> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => toTagRecord(await claim(tx, userId, input.code, input)));
}

export interface BulkActivateResult {
  activated: TagRecord[];
  failed: { code: string; error: { code: string; message: string } }[];
}

/** POST /tags/bulk-activate: each code on its own (a savepoint each), reported per code. */
export async function bulkActivateTags(ctx: ServiceContext, input: { codes: string[]; tagType?: TagType }): Promise<BulkActivateResult> {
  const { userId } = requireUser(ctx);
  const result: BulkActivateResult = { activated: [], failed: [] };
  await withTransaction(ctx, async (tx) => {
    for (const code of input.codes) {
      try {
        const tag = await tx.db.transaction((savepoint) => claim({ ...tx, db: savepoint }, userId, code, { tagType: input.tagType }));
        result.activated.push(toTagRecord(tag));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        result.failed.push({ code, error: { code: error.code, message: error.message } });
      }
    }
  });
  return result;
}

export interface ListTagsInput extends PageRequest {
  status?: TagStatus;
  tagType?: TagType;
}

const tagOrder: ListOrder<Tag> = {
  name: "tags",
  keys: [
    { column: schema.tags.createdAt, direction: "desc", type: "timestamp" },
    { column: schema.tags.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.createdAt, row.id],
};

/** GET /tags: the caller's tags, newest first, by page or by cursor (index tags_owner_created_id_idx). */
export async function listTags(ctx: ServiceContext, input: ListTagsInput): Promise<Page<TagRecord>> {
  const { userId } = requireUser(ctx);
  const filters: SQL[] = [eq(schema.tags.ownerId, userId)];
  if (input.status) filters.push(eq(schema.tags.status, input.status));
  if (input.tagType) filters.push(eq(schema.tags.tagType, input.tagType));
  const where = and(...filters);
  const plan = keysetPage(tagOrder, [userId, input.status ?? null, input.tagType ?? null], input);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(schema.tags)
      .where(and(where, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.tags).where(where)),
  ]);
  return plan.finish(rows, toTagRecord, total);
}

/** How many of the caller's tags are in each status (every status present, 0 when none): the dashboard overview. */
export async function countTagsByStatus(ctx: ServiceContext): Promise<Record<TagStatus, number>> {
  const { userId } = requireUser(ctx);
  const rows = await ctx.db
    .select({ status: schema.tags.status, n: count() })
    .from(schema.tags)
    .where(eq(schema.tags.ownerId, userId))
    .groupBy(schema.tags.status);
  const counts = Object.fromEntries(tagStatuses.map((status) => [status, 0])) as Record<TagStatus, number>;
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

export async function getTag(ctx: ServiceContext, id: string): Promise<TagRecord> {
  return toTagRecord(await ownedTag(ctx, id));
}

/** PATCH /tags/:id: the record's own fields. Changing the type of a PENDING tag may complete (or not) its profile. */
export async function updateTag(ctx: ServiceContext, id: string, input: { itemName?: string | null; tagType?: TagType }): Promise<TagRecord> {
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, id, { lock: true });
    const changes = { ...(input.itemName !== undefined ? { itemName: input.itemName } : {}), ...(input.tagType ? { tagType: input.tagType } : {}) };
    // A body with nothing to change (unknown fields are ignored) must not reach `.set({})`, which throws.
    const [updated] = Object.keys(changes).length ? await tx.db.update(schema.tags).set(changes).where(eq(schema.tags.id, id)).returning() : [tag];
    return toTagRecord(await activateIfComplete(tx.db, updated!, requireUser(ctx).userId));
  });
}

/**
 * DELETE /tags/:id: releases the tag to inventory. Its profile, photos, scans, threads, transfers and
 * insurance go; it becomes unowned PENDING_SETUP with a new encryptedId, so old scan links stop working.
 */
export async function releaseTag(ctx: ServiceContext, id: string): Promise<{ message: string }> {
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, id, { lock: true });
    const children = [schema.tagProfiles, schema.petProfiles, schema.vehicleProfiles, schema.deviceProfiles, schema.travelProfiles, schema.tagPhotos, schema.scans, schema.tagScanDays, schema.tagTransfers, schema.tagInsurance, schema.tagEvents] as const;
    for (const table of children) await tx.db.delete(table).where(eq(table.tagId, tag.id));
    await switchOffTagRelay(tx.db, tag.id);
    // The releasing owner's conversations about it go too (their messages cascade). A previous owner's
    // (closed when the tag was transferred to this one) are that owner's history and stay with them.
    await tx.db.delete(schema.threads).where(and(eq(schema.threads.tagId, tag.id), eq(schema.threads.ownerId, tag.ownerId!)));
    await tx.db
      .update(schema.tags)
      .set({
        ownerId: null,
        status: "PENDING_SETUP",
        encryptedId: newEncryptedId(),
        itemName: null,
        lostMessage: null,
        visibility: "PUBLIC",
        scanCount: 0,
        lastScannedAt: null,
        activatedAt: null,
        typedProfileSavedAt: null,
        policeReportRef: null,
        stolenReportedAt: null,
      })
      .where(eq(schema.tags.id, tag.id));
    return { message: "The tag was released. Its code can be activated again." };
  });
}
