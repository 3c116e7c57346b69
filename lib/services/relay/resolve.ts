import { and, eq, notInArray } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { openSealedText } from "@/lib/auth/tokens";
import { FALLBACK_TIME_ZONE, usableTimeZone } from "@/lib/i18n/time-zones";
import { hashPhoneNumber, OWNER_PHONE_SEAL } from "./phone-number";
import type { RelayQuietHours } from "./quiet-hours";

/** What the relay needs to put a finder through (part 2's voice and SMS webhooks). */
export interface ResolvedRelayPin {
  tagId: string;
  ownerId: string;
  itemName: string | null;
  /** The owner's verified number, opened (E.164): only ever handed to the provider to dial or text. */
  ownerPhone: string;
  quietHours: RelayQuietHours | null;
  /** The owner's zone for the quiet hours: their notification preferences' `timeZone`, else UTC. */
  timeZone: string;
}

/** Tags whose relay is not answered whatever its setting: switched off or run out. */
const SILENT_STATUSES = ["DEACTIVATED", "EXPIRED"] as const;

/**
 * The tag behind a relay PIN, only when its relay is on, was set by the tag's current owner (the relay
 * does not follow a tag to a new owner) and that owner has a verified number; else null. Quiet hours are
 * answered, not applied: the caller decides with isInsideQuietHours.
 */
export async function resolveRelayPin(db: Executor, pin: string): Promise<ResolvedRelayPin | null> {
  if (!/^\d{6}$/.test(pin)) return null;
  const [row] = await db
    .select({
      tagId: schema.tagRelays.tagId,
      ownerId: schema.tagRelays.ownerId,
      itemName: schema.tags.itemName,
      phoneSealed: schema.ownerPhones.phoneSealed,
      quietFrom: schema.tagRelays.quietFrom,
      quietTo: schema.tagRelays.quietTo,
      timeZone: schema.notificationPreferences.timeZone,
    })
    .from(schema.tagRelays)
    .innerJoin(schema.tags, and(eq(schema.tags.id, schema.tagRelays.tagId), eq(schema.tags.ownerId, schema.tagRelays.ownerId)))
    .innerJoin(schema.ownerPhones, eq(schema.ownerPhones.userId, schema.tagRelays.ownerId))
    .leftJoin(schema.notificationPreferences, eq(schema.notificationPreferences.userId, schema.tagRelays.ownerId))
    .where(and(eq(schema.tagRelays.pin, pin), eq(schema.tagRelays.enabled, true), notInArray(schema.tags.status, [...SILENT_STATUSES])));
  if (!row) return null;
  return {
    tagId: row.tagId,
    ownerId: row.ownerId,
    itemName: row.itemName,
    ownerPhone: openSealedText(OWNER_PHONE_SEAL, row.phoneSealed),
    quietHours: row.quietFrom && row.quietTo ? { from: row.quietFrom, to: row.quietTo } : null,
    timeZone: row.timeZone ? usableTimeZone(row.timeZone) : FALLBACK_TIME_ZONE,
  };
}

/** The account whose verified relay number this is (an owner texting the relay), or null. `e164` as Twilio sends `From`. */
export async function findOwnerByPhone(db: Executor, e164: string): Promise<{ ownerId: string } | null> {
  const [row] = await db.select({ ownerId: schema.ownerPhones.userId }).from(schema.ownerPhones).where(eq(schema.ownerPhones.phoneHash, hashPhoneNumber(e164)));
  return row ?? null;
}

/** Switches off the tag's relay for a hand-over: the tags domain's, so transfers and releases call it without a domain loop. */
export { switchOffTagRelay } from "@/lib/services/tags";
