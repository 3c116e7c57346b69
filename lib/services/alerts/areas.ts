import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireUser, type ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { tagMapPlaces } from "@/lib/services/tags";
import { storedAreaPoint } from "./places";
import type { AlertArea, AlertAreaInput } from "./schemas";

const AREA_NOT_FOUND = "You are not watching an area for lost pets.";

function toAlertArea(row: typeof schema.alertAreas.$inferSelect): AlertArea {
  return { latitude: row.latitude, longitude: row.longitude, radiusKm: row.radiusKm, species: row.species, updatedAt: row.updatedAt.toISOString() };
}

/** GET /alerts/area: the caller's watch area, or 404 when they have none. */
export async function getAlertArea(ctx: ServiceContext): Promise<AlertArea> {
  const { userId } = requireUser(ctx);
  const [row] = await ctx.db.select().from(schema.alertAreas).where(eq(schema.alertAreas.userId, userId));
  if (!row) throw new NotFoundError(AREA_NOT_FOUND);
  return toAlertArea(row);
}

/** The caller's watch area, or null (pages). */
export async function findAlertArea(ctx: ServiceContext): Promise<AlertArea | null> {
  const { userId } = requireUser(ctx);
  const [row] = await ctx.db.select().from(schema.alertAreas).where(eq(schema.alertAreas.userId, userId));
  return row ? toAlertArea(row) : null;
}

/**
 * PUT /alerts/area: sets the one area an account watches (its home), replacing any earlier one. The point
 * is stored rounded to about 100 m (places.ts): we never hold anyone's exact home.
 */
export async function putAlertArea(ctx: ServiceContext, input: AlertAreaInput): Promise<AlertArea> {
  const { userId } = requireUser(ctx);
  const point = storedAreaPoint(input.latitude, input.longitude);
  const values = { ...point, radiusKm: input.radiusKm, species: input.species ?? null };
  const [row] = await ctx.db
    .insert(schema.alertAreas)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: schema.alertAreas.userId, set: { ...values, updatedAt: new Date() } })
    .returning();
  return toAlertArea(row!);
}

/** DELETE /alerts/area: stops watching; 404 when there was no area. */
export async function deleteAlertArea(ctx: ServiceContext): Promise<{ message: string }> {
  const { userId } = requireUser(ctx);
  const removed = await ctx.db.delete(schema.alertAreas).where(eq(schema.alertAreas.userId, userId)).returning({ userId: schema.alertAreas.userId });
  if (removed.length === 0) throw new NotFoundError(AREA_NOT_FOUND);
  return { message: "You no longer receive lost-pet alerts." };
}

/**
 * Where the lost-alert form's map opens before the owner picks the place (docs/alerts.md): where the tag
 * was last placed (a finder's shared location or a located real scan), else the centre of the owner's
 * watch area, else null (the whole world). Only a starting view: nothing is chosen for the owner.
 */
export async function lostAlertMapOpening(ctx: ServiceContext, tagId: string): Promise<{ latitude: number; longitude: number } | null> {
  const { located } = await tagMapPlaces(ctx, tagId);
  const last = located[0];
  if (last?.latitude != null && last.longitude != null) return { latitude: last.latitude, longitude: last.longitude };
  const area = await findAlertArea(ctx);
  return area ? { latitude: area.latitude, longitude: area.longitude } : null;
}
