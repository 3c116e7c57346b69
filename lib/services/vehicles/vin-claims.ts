import { and, eq, isNotNull, ne, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { afterTransaction, type ServiceContext } from "@/lib/services/context";
import { ConflictError } from "@/lib/services/errors";
import { fileVinConflictReport } from "@/lib/services/reports";

/**
 * One claim per VIN. A VIN is claimed by the vehicle profile that carries it while its tag is owned and in
 * any status but DEACTIVATED: PENDING_SETUP, ACTIVE, LOST, FOUND, STOLEN and EXPIRED all hold it (an
 * expired tag comes back on an upgrade, with its profile). Deactivating or releasing the tag frees it.
 * Whatever the tag's type says: a vehicle profile left behind by a type change still holds its VIN.
 */
export const VIN_TAKEN = "This VIN is already registered with another vehicle tag. We have asked our team to review it; contact support if the vehicle is yours.";
export const VIN_TAKEN_BY_YOU = "This VIN is already on another of your vehicle tags. Deactivate that tag first to move the VIN here.";

/**
 * Serialises every claim of one VIN until the transaction ends: a transaction-scoped advisory lock keyed by
 * the VIN, so ten simultaneous saves of one VIN check and write one after another and only the first
 * holds it (a plain read-then-write would let all ten see it free).
 */
async function lockVin(db: Executor, vin: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`vin:${vin}`}, 0))`);
}

/** The live tag, other than `tagId`, holding `vin`; call with the VIN locked. */
async function vinHolder(db: Executor, vin: string, tagId: string): Promise<{ tagId: string; ownerId: string | null } | undefined> {
  const [holder] = await db
    .select({ tagId: schema.tags.id, ownerId: schema.tags.ownerId })
    .from(schema.vehicleProfiles)
    .innerJoin(schema.tags, eq(schema.tags.id, schema.vehicleProfiles.tagId))
    .where(and(eq(schema.vehicleProfiles.vin, vin), ne(schema.vehicleProfiles.tagId, tagId), isNotNull(schema.tags.ownerId), ne(schema.tags.status, "DEACTIVATED")))
    .orderBy(schema.tags.createdAt)
    .limit(1);
  return holder;
}

/**
 * Takes the VIN's lock and refuses (409 CONFLICT) when another live tag holds it. Another owner's hold
 * files a VIN_CONFLICT report for review, committed after the refused request rolls back; the answer never
 * says which tag or owner holds it. Run inside the claiming transaction, before its write.
 */
export async function assertVinClaimable(ctx: ServiceContext, vin: string, claimant: { id: string; ownerId: string | null }): Promise<void> {
  await lockVin(ctx.db, vin);
  const holder = await vinHolder(ctx.db, vin, claimant.id);
  if (!holder) return;
  if (holder.ownerId === claimant.ownerId) throw new ConflictError(VIN_TAKEN_BY_YOU, { field: "vin" });
  await afterTransaction(ctx, (db) => fileVinConflictReport(db, { vin, holder, claimant: { tagId: claimant.id, ownerId: claimant.ownerId } }));
  throw new ConflictError(VIN_TAKEN, { field: "vin" });
}

/** A DEACTIVATED tag coming back claims its profile's VIN again: the same check, before the move. */
export async function assertReactivationKeepsVin(ctx: ServiceContext, tag: { id: string; ownerId: string | null }): Promise<void> {
  const [profile] = await ctx.db.select({ vin: schema.vehicleProfiles.vin }).from(schema.vehicleProfiles).where(eq(schema.vehicleProfiles.tagId, tag.id));
  if (profile?.vin) await assertVinClaimable(ctx, profile.vin, tag);
}
