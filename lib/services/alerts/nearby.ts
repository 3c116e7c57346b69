import { and, eq, isNull, sql } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireUser, type ServiceContext } from "@/lib/services/context";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";
import { aboutDistance } from "./places";
import { alertUrl, photoUrlOf } from "./queries";
import type { NearbyAlert } from "./schemas";

const nearbyOrder: ListOrder<{ alertId: string; createdAt: Date }> = {
  name: "alerts-nearby",
  keys: [
    { column: schema.lostPetAlerts.createdAt, direction: "desc", type: "timestamp" },
    { column: schema.lostPetAlerts.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.createdAt, row.alertId],
};

/**
 * GET /alerts/nearby: the open alerts the caller's watch area was reached by (the fan-out's recipients),
 * newest first. Closed and removed alerts drop out; the distance is the rounded one the notification gave.
 */
export async function listNearbyAlerts(ctx: ServiceContext, input: PageRequest): Promise<Page<NearbyAlert>> {
  const { userId } = requireUser(ctx);
  const alerts = schema.lostPetAlerts;
  const recipients = schema.lostPetAlertRecipients;
  const pets = schema.petProfiles;
  // An alert whose tag has left its owner is not that owner's pet any more (as on the public page: 404).
  const mine = and(eq(recipients.userId, userId), isNull(alerts.closedAt), isNull(alerts.removedAt), eq(schema.tags.ownerId, alerts.ownerId));
  const plan = keysetPage(nearbyOrder, [userId], input);
  const [rows, total] = await Promise.all([
    ctx.db
      .select({
        alertId: alerts.id,
        species: alerts.species,
        lastSeenAt: alerts.lastSeenAt,
        createdAt: alerts.createdAt,
        distanceM: recipients.distanceM,
        tagId: alerts.tagId,
        petName: sql<string | null>`coalesce(nullif(${pets.petName}, ''), ${schema.tags.itemName})`,
        breed: pets.breed,
        color: pets.color,
      })
      .from(recipients)
      .innerJoin(alerts, eq(alerts.id, recipients.alertId))
      .innerJoin(schema.tags, eq(schema.tags.id, alerts.tagId))
      .leftJoin(pets, eq(pets.tagId, alerts.tagId))
      .where(and(mine, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(
      ctx.db,
      ctx.db
        .select({ one: sql`1` })
        .from(recipients)
        .innerJoin(alerts, eq(alerts.id, recipients.alertId))
        .innerJoin(schema.tags, eq(schema.tags.id, alerts.tagId))
        .where(mine),
    ),
  ]);
  const photos = await photoUrlOf(
    ctx.db,
    rows.map((row) => row.tagId),
  );
  return plan.finish(
    rows,
    (row) => ({
      alertId: row.alertId,
      petName: row.petName ?? null,
      species: row.species,
      breed: row.breed || null,
      color: row.color || null,
      photoUrl: photos.get(row.tagId) ?? null,
      distanceText: aboutDistance(row.distanceM),
      lastSeenAt: row.lastSeenAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
      url: alertUrl(row.alertId),
    }),
    total,
  );
}
