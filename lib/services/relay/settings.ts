import { and, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { TagRelay } from "@/db/schema";
import { FALLBACK_TIME_ZONE, usableTimeZone } from "@/lib/i18n/time-zones";
import { telephonyProvider } from "@/lib/telephony/provider";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ConflictError, NotFoundError } from "@/lib/services/errors";
import { assignRelayPin, randomPin } from "./pin";
import type { RelaySettings, UpdateRelayInput } from "./schemas";

/** The `reason` in a 409's details, so a client can tell the two refusals apart. */
export const PHONE_NOT_VERIFIED = "PHONE_NOT_VERIFIED";
export const RELAY_OFF = "RELAY_OFF";

/** The caller's tag, locked for the change when asked; another's tag or none is 404, as for every tag endpoint. */
async function ownedTag(db: Executor, userId: string, tagId: string, lock = false): Promise<{ id: string }> {
  const query = db
    .select({ id: schema.tags.id })
    .from(schema.tags)
    .where(and(eq(schema.tags.id, tagId), eq(schema.tags.ownerId, userId)));
  const [tag] = lock ? await query.for("update") : await query;
  if (!tag) throw new NotFoundError("Tag not found.");
  return tag;
}

/** The relay row as the owner's: a row set by an earlier owner of the tag counts as none (the relay does not follow a tag). */
async function ownRelay(db: Executor, userId: string, tagId: string): Promise<TagRelay | undefined> {
  const [row] = await db.select().from(schema.tagRelays).where(eq(schema.tagRelays.tagId, tagId));
  return row?.ownerId === userId ? row : undefined;
}

/** The owner's zone (notification preferences' `timeZone`), UTC until they choose one (docs/relay.md). */
export async function ownerTimeZone(db: Executor, userId: string): Promise<string> {
  const [row] = await db.select({ timeZone: schema.notificationPreferences.timeZone }).from(schema.notificationPreferences).where(eq(schema.notificationPreferences.userId, userId));
  return row?.timeZone ? usableTimeZone(row.timeZone) : FALLBACK_TIME_ZONE;
}

async function view(db: Executor, userId: string, relay: TagRelay | undefined): Promise<RelaySettings> {
  const enabled = relay?.enabled ?? false;
  const quiet = relay?.quietFrom && relay.quietTo ? { from: relay.quietFrom, to: relay.quietTo, timeZone: await ownerTimeZone(db, userId) } : null;
  return { enabled, number: telephonyProvider().relayNumber, pin: enabled ? (relay?.pin ?? null) : null, quietHours: quiet };
}

/** GET /tags/:id/relay: off (and no PIN) until the owner turns it on. */
export async function getRelaySettings(ctx: ServiceContext, tagId: string): Promise<RelaySettings> {
  const { userId } = requireUser(ctx);
  await ownedTag(ctx.db, userId, tagId);
  return view(ctx.db, userId, await ownRelay(ctx.db, userId, tagId));
}

/**
 * PATCH /tags/:id/relay. Turning it on needs a verified phone (409, reason PHONE_NOT_VERIFIED) and gives the
 * tag a PIN free among the enabled relays: the one it had, when still free, else a new one. Turning it
 * off keeps the PIN for later but frees it for others. `quietHours` absent keeps them; null clears them.
 */
export async function updateRelaySettings(ctx: ServiceContext, tagId: string, input: UpdateRelayInput): Promise<RelaySettings> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    await ownedTag(tx.db, userId, tagId, true);
    if (input.enabled) {
      const [phone] = await tx.db.select({ userId: schema.ownerPhones.userId }).from(schema.ownerPhones).where(eq(schema.ownerPhones.userId, userId));
      if (!phone) throw new ConflictError("Verify a phone number first: the relay puts finders through to it.", { reason: PHONE_NOT_VERIFIED });
    }
    const current = await ownRelay(tx.db, userId, tagId);
    const quiet = input.quietHours === undefined ? { quietFrom: current?.quietFrom ?? null, quietTo: current?.quietTo ?? null } : { quietFrom: input.quietHours?.from ?? null, quietTo: input.quietHours?.to ?? null };
    const staysOn = input.enabled && current?.enabled === true;
    // An earlier owner's row is overwritten whole: their PIN and quiet hours are not this owner's.
    const values = { ownerId: userId, enabled: staysOn, pin: current?.pin ?? null, ...quiet };
    await tx.db.insert(schema.tagRelays).values({ tagId, ...values }).onConflictDoUpdate({ target: schema.tagRelays.tagId, set: values });
    if (input.enabled && !staysOn) await assignRelayPin(tx.db, tagId, { preferred: current?.pin ?? null });
    return view(tx.db, userId, await ownRelay(tx.db, userId, tagId));
  });
}

/** POST /tags/:id/relay/pin: a new PIN, different from the old one; 409 (reason RELAY_OFF) while the relay is off. */
export async function regenerateRelayPin(ctx: ServiceContext, tagId: string, next: () => string = randomPin): Promise<RelaySettings> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    await ownedTag(tx.db, userId, tagId, true);
    const current = await ownRelay(tx.db, userId, tagId);
    if (!current?.enabled) throw new ConflictError("Turn the relay on first.", { reason: RELAY_OFF });
    await assignRelayPin(tx.db, tagId, { avoid: current.pin, next });
    return view(tx.db, userId, await ownRelay(tx.db, userId, tagId));
  });
}
