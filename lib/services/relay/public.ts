import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import type { Tag } from "@/db/schema";
import { telephonyProvider } from "@/lib/telephony/provider";
import { requireUser, type ServiceContext } from "@/lib/services/context";
import { PHONE_CODE_TRIES } from "./phone";

/** What a finder is shown of a tag's relay: the relay's number and the tag's PIN, never the owner's number. */
export interface PublicRelay {
  number: string;
  pin: string;
}

/**
 * The relay a finder may use for this tag, or null: by resolveRelayPin's rules (docs/relay.md), the relay
 * is on, was set by the tag's current owner, that owner has a verified number, and the tag is neither
 * DEACTIVATED nor EXPIRED. For the public view (GET /scan/:encryptedId and the finder page).
 */
export async function publicRelayOf(db: Executor, tag: Pick<Tag, "id" | "ownerId" | "status">): Promise<PublicRelay | null> {
  if (!tag.ownerId || tag.status === "DEACTIVATED" || tag.status === "EXPIRED") return null;
  return publicRelayFrom(tag, await relayPinOf(db, tag.id, tag.ownerId));
}

/**
 * The PIN of the relay `ownerId` turned on for the tag with a verified number, or null, whatever the tag's
 * status: the read behind publicRelayOf, which the scan's view caches by the tag's view_version
 * (lib/services/finder/view.ts) and judges against the status of the scan's own tag row (publicRelayFrom).
 */
export async function relayPinOf(db: Executor, tagId: string, ownerId: string): Promise<string | null> {
  // Every scan that misses the view's cache reads it: prepared, as the public view's other hot reads (db/prepared.ts).
  const [row] = await preparedFor(publicRelayQueries, db, preparePublicRelay).execute({ tagId, ownerId });
  return row?.pin ?? null;
}

/** publicRelayOf from the tag row and relayPinOf's answer for its owner. */
export function publicRelayFrom(tag: Pick<Tag, "ownerId" | "status">, pin: string | null): PublicRelay | null {
  if (!tag.ownerId || tag.status === "DEACTIVATED" || tag.status === "EXPIRED") return null;
  return pin ? { number: telephonyProvider().relayNumber, pin } : null;
}

const publicRelayQueries = new WeakMap<Executor, ReturnType<typeof preparePublicRelay>>();

function preparePublicRelay(db: Executor) {
  return db
    .select({ pin: schema.tagRelays.pin })
    .from(schema.tagRelays)
    .innerJoin(schema.ownerPhones, eq(schema.ownerPhones.userId, schema.tagRelays.ownerId))
    .where(and(eq(schema.tagRelays.tagId, sql.placeholder("tagId")), eq(schema.tagRelays.ownerId, sql.placeholder("ownerId")), eq(schema.tagRelays.enabled, true)))
    .prepare("public_relay");
}

/** A code still waiting for the owner (not used, not expired, tries left): the account page then asks for it. */
export async function pendingPhoneCode(ctx: ServiceContext): Promise<{ lastDigits: string; expiresAt: string } | null> {
  const { userId } = requireUser(ctx);
  const table = schema.phoneVerifications;
  const [row] = await ctx.db
    .select({ lastDigits: table.lastDigits, expiresAt: table.expiresAt })
    .from(table)
    .where(and(eq(table.userId, userId), isNull(table.consumedAt), lt(table.attempts, PHONE_CODE_TRIES), gt(table.expiresAt, new Date())));
  return row ? { lastDigits: row.lastDigits, expiresAt: row.expiresAt.toISOString() } : null;
}
