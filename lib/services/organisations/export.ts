import { asc, count, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";

/** The account's organisation, for the data export (an empty list when it has none). */
export async function exportOrganisation(db: Executor, userId: string): Promise<unknown[]> {
  const rows = await db.select().from(schema.organisations).where(eq(schema.organisations.userId, userId));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    kind: row.kind,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    phone: row.phone,
    website: row.website,
    watchRadiusKm: row.watchRadiusKm,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * The found-animal reports the account's organisation filed, for the data export: what was reported and how
 * many alerts it matched (the matched alerts are other people's, so only their number), without the photo's bytes.
 */
export async function exportFoundReports(db: Executor, userId: string): Promise<unknown[]> {
  const rows = await db
    .select({ report: schema.foundReports, matches: count(schema.foundReportMatches.alertId) })
    .from(schema.foundReports)
    .innerJoin(schema.organisations, eq(schema.organisations.id, schema.foundReports.organisationId))
    .leftJoin(schema.foundReportMatches, eq(schema.foundReportMatches.reportId, schema.foundReports.id))
    .where(eq(schema.organisations.userId, userId))
    .groupBy(schema.foundReports.id)
    .orderBy(asc(schema.foundReports.createdAt), asc(schema.foundReports.id));
  return rows.map(({ report, matches }) => ({
    id: report.id,
    species: report.species,
    breed: report.breed,
    colour: report.color,
    latitude: report.latitude,
    longitude: report.longitude,
    foundAt: report.foundAt.toISOString(),
    note: report.note,
    matchedAlerts: matches,
    createdAt: report.createdAt.toISOString(),
    removedAt: report.removedAt?.toISOString() ?? null,
  }));
}
