import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { LostPetAlert } from "@/db/schema";
import { listPhotos, photoUrl } from "@/lib/services/profiles";
import type { AlertStatus } from "./schemas";
import type { PetSpecies } from "./species";

/**
 * The alerts domain's reads and the fan-out's one write on a bare database handle (or the caller's
 * transaction). Routes, actions and pages use the verbs in index.ts instead.
 */

export const ALERT_NOT_FOUND = "Alert not found.";

export const alertUrl = (alertId: string) => `/lost/${alertId}`;

/** What an alert is now: OPEN, HOME (the tag was marked FOUND or ACTIVE) or CLOSED (it left LOST otherwise). */
export function alertStatusOf(alert: Pick<LostPetAlert, "closedAt" | "closedReason">): AlertStatus {
  if (!alert.closedAt) return "OPEN";
  return alert.closedReason === "FOUND" || alert.closedReason === "ACTIVE" ? "HOME" : "CLOSED";
}

/** The pet's details as its profile has them (the public page's and the notification's words). */
export interface PetDetails {
  petName: string | null;
  speciesText: string | null;
  breed: string | null;
  color: string | null;
  size: string | null;
  distinctiveMarks: string | null;
}

export async function petDetailsOf(db: Executor, tag: { id: string; itemName: string | null }): Promise<PetDetails> {
  const [pet] = await db.select().from(schema.petProfiles).where(eq(schema.petProfiles.tagId, tag.id));
  return {
    petName: pet?.petName || tag.itemName || null,
    speciesText: pet?.species ?? null,
    breed: pet?.breed || null,
    color: pet?.color || null,
    size: pet?.size || null,
    distinctiveMarks: pet?.distinctiveMarks || null,
  };
}

/** The tag's photos, primary first. */
export async function photosOf(db: Executor, tagId: string): Promise<{ url: string; isPrimary: boolean }[]> {
  const photos = await listPhotos(db, tagId);
  return [...photos].sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary)).map((photo) => ({ url: photo.url, isPrimary: photo.isPrimary }));
}

export async function primaryPhotoUrl(db: Executor, tagId: string): Promise<string | null> {
  return (await photosOf(db, tagId))[0]?.url ?? null;
}

/** The primary photo's URL (else the first's) of each of these tags; tags without photos are absent. */
export async function photoUrlOf(db: Executor, tagIds: string[]): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  if (tagIds.length === 0) return urls;
  const rows = await db
    .select({ id: schema.tagPhotos.id, tagId: schema.tagPhotos.tagId })
    .from(schema.tagPhotos)
    .where(inArray(schema.tagPhotos.tagId, [...new Set(tagIds)]))
    .orderBy(desc(schema.tagPhotos.isPrimary), asc(schema.tagPhotos.createdAt), asc(schema.tagPhotos.id));
  for (const row of rows) if (!urls.has(row.tagId)) urls.set(row.tagId, photoUrl(row.id));
  return urls;
}

/** An alert by id, optionally locked; undefined when unknown. */
export async function alertById(db: Executor, alertId: string, options: { lock?: boolean } = {}): Promise<LostPetAlert | undefined> {
  const query = db.select().from(schema.lostPetAlerts).where(eq(schema.lostPetAlerts.id, alertId));
  const [alert] = options.lock ? await query.for("update") : await query;
  return alert;
}

/** The tag's alerts created in the last 24 hours, oldest first (the per-tag limit counts them). */
export async function alertsOfLastDay(db: Executor, tagId: string): Promise<{ createdAt: Date }[]> {
  return db
    .select({ createdAt: schema.lostPetAlerts.createdAt })
    .from(schema.lostPetAlerts)
    .where(and(eq(schema.lostPetAlerts.tagId, tagId), sql`${schema.lostPetAlerts.createdAt} > now() - interval '24 hours'`))
    .orderBy(asc(schema.lostPetAlerts.createdAt));
}

export async function alertsOfTag(db: Executor, tagId: string, ownerId: string, limit = 100) {
  const recipients = schema.lostPetAlertRecipients;
  return db
    .select({
      alert: schema.lostPetAlerts,
      notified: sql<number>`(select count(*) from ${recipients} where ${recipients.alertId} = ${schema.lostPetAlerts.id} and ${recipients.notificationId} is not null)`.mapWith(Number),
    })
    .from(schema.lostPetAlerts)
    .where(and(eq(schema.lostPetAlerts.tagId, tagId), eq(schema.lostPetAlerts.ownerId, ownerId)))
    .orderBy(desc(schema.lostPetAlerts.createdAt), desc(schema.lostPetAlerts.id))
    .limit(limit);
}

/**
 * The fan-out: one INSERT … SELECT of every watcher the alert reaches, with their distance in metres.
 * A watch area is reached when its point lies within min(its radius, the alert's radius) of the
 * last-seen place; `earth_box(…) @> earth_point(…)` narrows through the GiST index on the areas'
 * points (the box of the alert's radius holds every smaller circle) and `earth_distance` decides exactly.
 * Not reached: areas for another species, the owner, anyone the owner blocked or who blocked the owner,
 * suspended accounts. Answers how many rows it wrote.
 */
export async function insertAlertRecipients(db: Executor, alert: RecipientSearch): Promise<number> {
  return affectedRows(await db.execute(alertRecipientsInsert(alert)));
}

export interface RecipientSearch {
  id: string;
  ownerId: string;
  latitude: number;
  longitude: number;
  radiusKm: number;
  species: PetSpecies;
}

/** The fan-out's statement itself (insertAlertRecipients runs it; the benchmark EXPLAINs it). */
export function alertRecipientsInsert(alert: RecipientSearch): SQL {
  const areas = schema.alertAreas;
  const blocks = schema.userBlocks;
  const users = schema.users;
  const centre = sql`ll_to_earth(${alert.latitude}::float8, ${alert.longitude}::float8)`;
  // earth_point, not ll_to_earth: the expression the GiST index is on (db/schema/alerts.ts).
  const point = sql`earth_point(${areas.latitude}, ${areas.longitude})`;
  const radiusM = alert.radiusKm * 1000;
  return sql`
    insert into ${schema.lostPetAlertRecipients} (alert_id, user_id, distance_m)
    select ${alert.id}::uuid, ${areas.userId}, round(earth_distance(${centre}, ${point}))::int
    from ${areas}
    join ${users} on ${users.id} = ${areas.userId}
    where earth_box(${centre}, ${radiusM}::float8) @> ${point}
      and earth_distance(${centre}, ${point}) <= least(${areas.radiusKm} * 1000, ${radiusM}::float8)
      and (${areas.species} is null or ${areas.species} = ${alert.species}::pet_species)
      and ${areas.userId} <> ${alert.ownerId}::uuid
      and ${users.suspendedAt} is null
      and not exists (
        select 1 from ${blocks}
        where (${blocks.blockerId} = ${alert.ownerId}::uuid and ${blocks.blockedId} = ${areas.userId})
           or (${blocks.blockerId} = ${areas.userId} and ${blocks.blockedId} = ${alert.ownerId}::uuid)
      )
    on conflict do nothing`;
}

/** Rows an INSERT/UPDATE touched, as postgres.js (`count`) and PGlite (`affectedRows`) report it. */
function affectedRows(result: unknown): number {
  const r = result as { count?: number; affectedRows?: number; rowCount?: number };
  return Number(r.count ?? r.affectedRows ?? r.rowCount ?? 0);
}
