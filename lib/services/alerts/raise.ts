import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ConflictError, RateLimitError } from "@/lib/services/errors";
import { ownedTag } from "@/lib/services/tags";
import { alertsOfLastDay, alertsOfTag, alertStatusOf, alertUrl, insertAlertRecipients, petDetailsOf } from "./queries";
import { ALERTS_PER_TAG_PER_DAY, type LostAlertCreated, type LostAlertInput, type TagLostAlerts } from "./schemas";
import { speciesOf } from "./species";

const DAY_MS = 86_400_000;
const NOT_A_PET = "Only a pet tag can alert people nearby.";
const NOT_LOST = "Turn lost mode on first: only a LOST pet can alert people nearby.";

/** The per-tag allowance left now, and when the next alert is allowed once it is used up. */
function allowance(recent: { createdAt: Date }[], now: Date): { remaining: number; nextAllowedAt: Date | null } {
  const remaining = Math.max(0, ALERTS_PER_TAG_PER_DAY - recent.length);
  if (remaining > 0) return { remaining, nextAllowedAt: null };
  // The oldest of the window's alerts leaves it first.
  const oldest = recent[recent.length - ALERTS_PER_TAG_PER_DAY]!.createdAt;
  return { remaining, nextAllowedAt: new Date(Math.max(now.getTime(), oldest.getTime() + DAY_MS)) };
}

/**
 * POST /tags/:id/lost-alert: the owner of a LOST pet tag alerts the watchers around the place it was last
 * seen. In one transaction, under the tag's row lock (so concurrent requests count one after another):
 * at most ALERTS_PER_TAG_PER_DAY in any 24 hours (429 with Retry-After), the alert, its recipients (one
 * INSERT … SELECT, insertAlertRecipients) and the `alerts.fan-out` job that notifies them after commit.
 * Someone else's or an unknown tag 404; not a PET tag or not LOST 409.
 */
export async function raiseLostAlert(ctx: ServiceContext, tagId: string, input: LostAlertInput): Promise<LostAlertCreated> {
  requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, tagId, { lock: true });
    // Read once the lock is held: the alerts counted below may have been written while this request waited.
    const now = new Date();
    if (tag.tagType !== "PET") throw new ConflictError(NOT_A_PET);
    if (tag.status !== "LOST") throw new ConflictError(NOT_LOST);
    const { remaining, nextAllowedAt } = allowance(await alertsOfLastDay(tx.db, tag.id), now);
    if (remaining === 0) throw new RateLimitError(Math.max(1, Math.ceil((nextAllowedAt!.getTime() - now.getTime()) / 1000)));

    const pet = await petDetailsOf(tx.db, tag);
    const species = speciesOf(pet.speciesText);
    const [alert] = await tx.db
      .insert(schema.lostPetAlerts)
      .values({
        tagId: tag.id,
        ownerId: tag.ownerId!,
        species,
        latitude: input.latitude,
        longitude: input.longitude,
        lastSeenAt: input.lastSeenAt ? new Date(input.lastSeenAt) : now,
        radiusKm: input.radiusKm,
        note: input.note ?? null,
      })
      .returning();
    const recipients = await insertAlertRecipients(tx.db, alert!);
    await tx.db.update(schema.lostPetAlerts).set({ recipientCount: recipients }).where(eq(schema.lostPetAlerts.id, alert!.id));
    if (recipients > 0) await enqueueJob(tx, "alerts.fan-out", { alertId: alert!.id });
    return { alertId: alert!.id, recipients, url: alertUrl(alert!.id) };
  });
}

/** GET /tags/:id/lost-alerts: the owner's alerts of the tag (precise place, recipients, state) and what is left today. */
export async function listTagAlerts(ctx: ServiceContext, tagId: string, now = new Date()): Promise<TagLostAlerts> {
  const { userId } = requireUser(ctx);
  const tag = await ownedTag(ctx, tagId);
  const [rows, recent] = await Promise.all([alertsOfTag(ctx.db, tag.id, userId), alertsOfLastDay(ctx.db, tag.id)]);
  const { remaining, nextAllowedAt } = allowance(recent, now);
  return {
    alerts: rows.map(({ alert, notified }) => ({
      id: alert.id,
      status: alertStatusOf(alert),
      removed: alert.removedAt !== null,
      latitude: alert.latitude,
      longitude: alert.longitude,
      lastSeenAt: alert.lastSeenAt.toISOString(),
      radiusKm: alert.radiusKm,
      note: alert.note,
      recipients: alert.recipientCount,
      notified,
      createdAt: alert.createdAt.toISOString(),
      closedAt: alert.closedAt?.toISOString() ?? null,
      url: alertUrl(alert.id),
    })),
    remainingToday: remaining,
    nextAllowedAt: nextAllowedAt?.toISOString() ?? null,
  };
}
