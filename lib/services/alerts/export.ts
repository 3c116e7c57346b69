import { asc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";

/** The user's watch area (at most one), for the data export. */
export async function exportAlertArea(db: Executor, userId: string): Promise<unknown[]> {
  const rows = await db.select().from(schema.alertAreas).where(eq(schema.alertAreas.userId, userId));
  return rows.map((row) => ({ latitude: row.latitude, longitude: row.longitude, radiusKm: row.radiusKm, species: row.species, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() }));
}

/** The lost-pet alerts the user raised, oldest first, with the precise place they gave, for the data export. */
export async function exportLostPetAlerts(db: Executor, userId: string): Promise<unknown[]> {
  const rows = await db.select().from(schema.lostPetAlerts).where(eq(schema.lostPetAlerts.ownerId, userId)).orderBy(asc(schema.lostPetAlerts.createdAt), asc(schema.lostPetAlerts.id));
  return rows.map((row) => ({
    id: row.id,
    tagId: row.tagId,
    species: row.species,
    latitude: row.latitude,
    longitude: row.longitude,
    lastSeenAt: row.lastSeenAt.toISOString(),
    radiusKm: row.radiusKm,
    note: row.note,
    recipients: row.recipientCount,
    createdAt: row.createdAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
    closedReason: row.closedReason,
    removedAt: row.removedAt?.toISOString() ?? null,
  }));
}
