import { and, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { LostPetAlert, Tag } from "@/db/schema";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { ForbiddenError, NotFoundError } from "@/lib/services/errors";
import { contactOwner, type ContactResult, shareLocationInThread } from "@/lib/services/messages";
import { publicRelayOf } from "@/lib/services/relay";
import { activeReward } from "@/lib/services/rewards";
import { finderCanReachOwner } from "@/lib/services/scans";
import type { Visitor } from "@/lib/services/visitor";
import { publicLastSeenPoint } from "./places";
import { ALERT_NOT_FOUND, alertById, alertStatusOf, petDetailsOf, photosOf } from "./queries";
import { type AlertContactInput, type PublicLostAlert, SIGHTING_DEFAULT_MESSAGE, type SightingInput } from "./schemas";

/** The 403 of a contact or sighting on an alert that is no longer open (the lost page tells it apart). */
export const ALERT_CLOSED = "This alert is closed: the owner no longer takes messages through it.";

/**
 * The alert and its tag while the alert may be shown: an unknown or removed alert is 404, and so is one
 * whose tag has left the owner who raised it (the new owner's pet is not that alert's).
 */
async function shownAlert(db: Executor, alertId: string): Promise<{ alert: LostPetAlert; tag: Tag }> {
  const alert = await alertById(db, alertId);
  if (!alert || alert.removedAt) throw new NotFoundError(ALERT_NOT_FOUND);
  const [tag] = await db.select().from(schema.tags).where(eq(schema.tags.id, alert.tagId));
  if (!tag || tag.ownerId !== alert.ownerId) throw new NotFoundError(ALERT_NOT_FOUND);
  return { alert, tag };
}

async function rewardNote(db: Executor, tagId: string, ownerId: string): Promise<string | null> {
  const [row] = await db
    .select({ description: schema.rewards.description })
    .from(schema.rewards)
    .where(and(eq(schema.rewards.tagId, tagId), eq(schema.rewards.ownerId, ownerId), eq(schema.rewards.status, "ACTIVE")))
    .limit(1);
  return row?.description ?? null;
}

/**
 * GET /lost/:alertId, public: the lost pet as its owner published it with the alert (raising one is the
 * owner's choice to show the pet, whatever the tag's profile visibility), the last-seen place rounded to
 * ~500 m, and while it is open the reward, the phone relay and the contact. Built field by field: never
 * the owner's name, e-mail, phone or address, their home area, the tag's scan URL or the precise place.
 */
export async function getPublicLostAlert(ctx: ServiceContext, alertId: string): Promise<PublicLostAlert> {
  const { alert, tag } = await shownAlert(ctx.db, alertId);
  const status = alertStatusOf(alert);
  const open = status === "OPEN";
  const [pet, photos, reward, note, relay] = await Promise.all([
    petDetailsOf(ctx.db, tag),
    photosOf(ctx.db, tag.id),
    open ? activeReward(ctx.db, tag.id, alert.ownerId) : null,
    open ? rewardNote(ctx.db, tag.id, alert.ownerId) : null,
    open ? publicRelayOf(ctx.db, tag) : null,
  ]);
  return {
    id: alert.id,
    status,
    petName: pet.petName,
    species: alert.species,
    breed: pet.breed,
    color: pet.color,
    size: pet.size,
    distinctiveMarks: pet.distinctiveMarks,
    photos,
    lastSeen: { ...publicLastSeenPoint(alert.latitude, alert.longitude), at: alert.lastSeenAt.toISOString() },
    note: alert.note,
    reward: reward ? { amount: reward.amount, currency: reward.currency, note } : null,
    relay,
    contactEnabled: open && finderCanReachOwner(tag),
    createdAt: alert.createdAt.toISOString(),
  };
}

/** The alert's tag when the alert still takes messages: closed 403, removed or unknown 404. */
async function contactableTag(db: Executor, alertId: string): Promise<Tag> {
  const { alert, tag } = await shownAlert(db, alertId);
  if (alertStatusOf(alert) !== "OPEN") throw new ForbiddenError(ALERT_CLOSED);
  return tag;
}

/**
 * POST /lost/:alertId/contact: the finder page's contact (messages' contactOwner, with the tag's scan id
 * read here and never shown), with its rules and answer; a closed alert 403, a removed one 404.
 */
export async function contactOwnerFromAlert(ctx: ServiceContext, alertId: string, input: AlertContactInput, visitor: Visitor): Promise<ContactResult> {
  return withTransaction(ctx, async (tx) => {
    const tag = await contactableTag(tx.db, alertId);
    return contactOwner(tx, tag.encryptedId, input, visitor);
  });
}

/**
 * POST /lost/:alertId/sightings: "I've seen this pet". Opens the conversation (contactOwner) and adds the
 * place as a location message (shareLocationInThread), in one transaction: the owner sees it on the
 * conversation's map, and either both happen or neither. Answers as the contact does.
 */
export async function reportSighting(ctx: ServiceContext, alertId: string, input: SightingInput, visitor: Visitor): Promise<ContactResult> {
  return withTransaction(ctx, async (tx) => {
    const tag = await contactableTag(tx.db, alertId);
    const contact = await contactOwner(tx, tag.encryptedId, { message: input.message ?? SIGHTING_DEFAULT_MESSAGE, finderName: input.finderName, finderEmail: input.finderEmail }, visitor);
    await shareLocationInThread(tx, contact.threadToken, { latitude: input.latitude, longitude: input.longitude, accuracy: input.accuracy }, visitor);
    return { ...contact, message: "Thank you: the owner can now see where you saw their pet. Keep the conversation link: it is the only way back to the reply." };
  });
}
