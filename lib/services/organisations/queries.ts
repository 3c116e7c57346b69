import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { aboutDistance, publicLastSeenPoint, type PetSpecies } from "@/lib/services/alerts";
import { photoUrl } from "@/lib/services/profiles";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";
import type { AdminOrganisation, Organisation, OrganisationAlert } from "./schemas";

/**
 * The organisations domain's reads on a bare database handle (or an open transaction). The lost-pet
 * alerts are read from their tables here, so this domain needs only the alerts domain's pure helpers.
 */

type OrganisationRow = typeof schema.organisations.$inferSelect;

export function toOrganisation(row: OrganisationRow): Organisation {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    phone: row.phone,
    website: row.website,
    watchRadiusKm: row.watchRadiusKm,
    verified: row.verifiedAt !== null,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toAdminOrganisation(row: OrganisationRow, userEmail: string | null): AdminOrganisation {
  return { ...toOrganisation(row), userId: row.userId, userEmail, verifiedById: row.verifiedById };
}

export async function organisationOfUser(db: Executor, userId: string, options: { lock?: boolean } = {}): Promise<OrganisationRow | undefined> {
  const query = db.select().from(schema.organisations).where(eq(schema.organisations.userId, userId));
  const [row] = options.lock ? await query.for("update") : await query;
  return row;
}

const alerts = schema.lostPetAlerts;
// earth_point, not ll_to_earth: the expression the GiST index is on (db/schema/alerts.ts).
const alertPoint = sql`earth_point(${alerts.latitude}, ${alerts.longitude})`;

function earthPoint(latitude: number, longitude: number): SQL {
  return sql`ll_to_earth(${latitude}::float8, ${longitude}::float8)`;
}

/** Open = not closed (the tag left LOST) and not removed by a moderator: the partial GiST index's predicate. */
const openAlert = and(isNull(alerts.closedAt), isNull(alerts.removedAt))!;

/**
 * Within `metres` of the point: the box test uses the GiST index on earth_point(latitude, longitude), the
 * distance test makes it exact (the box is a cube around the sphere's point).
 */
function withinMetres(latitude: number, longitude: number, metres: number): SQL {
  const point = earthPoint(latitude, longitude);
  return sql`earth_box(${point}, ${metres}::float8) @> ${alertPoint} and earth_distance(${point}, ${alertPoint}) <= ${metres}::float8`;
}

function distanceFrom(latitude: number, longitude: number): SQL<number> {
  return sql<number>`earth_distance(${earthPoint(latitude, longitude)}, ${alertPoint})`.mapWith(Number);
}

/** What an alert's card shows: the pet's profile and primary photo (a tag without a pet profile shows its name). */
function alertCardQuery(db: Executor, latitude: number, longitude: number) {
  return db
    .select({
      id: alerts.id,
      ownerId: alerts.ownerId,
      species: alerts.species,
      latitude: alerts.latitude,
      longitude: alerts.longitude,
      lastSeenAt: alerts.lastSeenAt,
      createdAt: alerts.createdAt,
      distanceM: distanceFrom(latitude, longitude),
      petName: schema.petProfiles.petName,
      itemName: schema.tags.itemName,
      breed: schema.petProfiles.breed,
      color: schema.petProfiles.color,
      photoId: schema.tagPhotos.id,
    })
    .from(alerts)
    .innerJoin(schema.tags, eq(schema.tags.id, alerts.tagId))
    .leftJoin(schema.petProfiles, eq(schema.petProfiles.tagId, alerts.tagId))
    .leftJoin(schema.tagPhotos, and(eq(schema.tagPhotos.tagId, alerts.tagId), eq(schema.tagPhotos.isPrimary, true)));
}

export type AlertCardRow = Awaited<ReturnType<ReturnType<typeof alertCardQuery>["where"]>>[number];

export function toOrganisationAlert(row: AlertCardRow): OrganisationAlert {
  return {
    alertId: row.id,
    petName: row.petName ?? row.itemName ?? "A pet",
    species: row.species,
    breed: row.breed ?? null,
    color: row.color ?? null,
    photoUrl: row.photoId ? photoUrl(row.photoId) : null,
    lastSeen: publicLastSeenPoint(row.latitude, row.longitude),
    lastSeenAt: row.lastSeenAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    distanceText: aboutDistance(row.distanceM),
    url: `/lost/${row.id}`,
  };
}

/** Open alerts within `metres` of a point, newest first: a page of them (by number or cursor) and how many there are. */
export async function openAlertsNear<T>(db: Executor, place: { latitude: number; longitude: number; metres: number; scope: string }, page: PageRequest, toItem: (row: AlertCardRow) => T): Promise<Page<T>> {
  const where = and(openAlert, withinMetres(place.latitude, place.longitude, place.metres));
  const plan = keysetPage(alertsNearOrder, [place.scope, place.latitude, place.longitude, place.metres], page);
  const [rows, total] = await Promise.all([
    alertCardQuery(db, place.latitude, place.longitude).where(and(where, plan.where)).orderBy(...plan.orderBy).limit(plan.limit).offset(plan.offset),
    boundedTotal(db, db.select({ one: sql`1` }).from(alerts).where(where)),
  ]);
  return plan.finish(rows, toItem, total);
}

const alertsNearOrder: ListOrder<{ id: string; createdAt: Date }> = {
  name: "alerts-near",
  keys: [
    { column: alerts.createdAt, direction: "desc", type: "timestamp" },
    { column: alerts.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.createdAt, row.id],
};

/** The candidates a found animal may be: open alerts of its species within `metres`, nearest first. */
export async function openAlertsOfSpeciesNear(db: Executor, place: { latitude: number; longitude: number; metres: number }, species: PetSpecies): Promise<AlertCardRow[]> {
  return alertCardQuery(db, place.latitude, place.longitude)
    .where(and(openAlert, eq(alerts.species, species), withinMetres(place.latitude, place.longitude, place.metres)))
    .orderBy(sql`earth_distance(${earthPoint(place.latitude, place.longitude)}, ${alertPoint})`, alerts.id);
}

/** The alerts a found report matched, as cards measured from the found place. */
export async function matchesOfReport(db: Executor, report: { id: string; latitude: number; longitude: number }, options: { ownerId?: string } = {}): Promise<AlertCardRow[]> {
  // An owner sees their own matched alerts even once removed; lists for others leave removed alerts out.
  const filters: SQL[] = [eq(schema.foundReportMatches.reportId, report.id), options.ownerId ? eq(alerts.ownerId, options.ownerId) : isNull(alerts.removedAt)];
  return alertCardQuery(db, report.latitude, report.longitude)
    .innerJoin(schema.foundReportMatches, eq(schema.foundReportMatches.alertId, alerts.id))
    .where(and(...filters))
    .orderBy(schema.foundReportMatches.distanceM, alerts.id);
}
