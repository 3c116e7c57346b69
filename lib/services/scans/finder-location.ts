import { schema, type Executor } from "@/db/client";
import type { Tag } from "@/db/schema";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { ForbiddenError } from "@/lib/services/errors";
import { notify } from "@/lib/services/notifications";
import { hashClientIp, type Visitor } from "@/lib/services/visitor";
import { clientRowWithin, tagByEncryptedId } from "./queries";
import type { SharedLocation, ShareLocationInput } from "./schemas";
import { describeUserAgent } from "./user-agents";
import { finderCanReachOwner } from "./view";

/** At most one FINDER_LOCATION_SHARED per tag and client in this time; every share is still kept. */
export const SHARE_ALERT_INTERVAL_MS = 10 * 60_000;

export const LOCATION_NOT_ACCEPTED = "This tag's owner cannot be reached through it, so the location was not shared.";

const itemLabel = (itemName: string | null) => (itemName ? `“${itemName}”` : "your tag");

/**
 * A shared location kept in the tag's scan list (and on its map): a row marked locationShared, class REAL,
 * that is not a scan of the tag, so it is neither counted in scanCount nor used by clone detection. The
 * client's IP is kept only as a keyed hash.
 */
export async function insertSharedLocationScan(db: Executor, tagId: string, input: ShareLocationInput, visitor: Visitor): Promise<{ id: string; scannedAt: Date }> {
  const [row] = await db
    .insert(schema.scans)
    .values({
      tagId,
      ipHash: hashClientIp(visitor.ip),
      city: visitor.geo?.city ?? null,
      country: visitor.geo?.country ?? null,
      latitude: input.latitude,
      longitude: input.longitude,
      accuracy: input.accuracy ?? null,
      locationShared: true,
      scanClass: "REAL",
      agent: describeUserAgent(visitor.userAgent),
    })
    .returning({ id: schema.scans.id, scannedAt: schema.scans.scannedAt });
  return row!;
}

/**
 * FINDER_LOCATION_SHARED for the owner. Its words (the e-mail's and the push's) never hold the
 * coordinates, only how precise they are and where to see them; `data` carries them for the owner's own
 * API, with the tag and, for a share inside a conversation, the conversation (the link then opens it).
 */
export async function notifyLocationShared(
  ctx: ServiceContext,
  input: { ownerId: string; itemName: string | null; finderName?: string | null; inConversation: boolean; accuracy: number | null; data: Record<string, unknown> },
) {
  const within = input.accuracy !== null ? ` (to within ${Math.round(input.accuracy)} m)` : "";
  const body = input.inConversation
    ? `${input.finderName ?? "The finder"} shared where they are in the conversation about ${itemLabel(input.itemName)}${within}. Open the conversation to see the place on a map.`
    : `Someone who scanned the tag on ${itemLabel(input.itemName)} shared where they are${within}. Open the tag's map to see the place.`;
  return notify(ctx, { userId: input.ownerId, type: "FINDER_LOCATION_SHARED", title: "A finder shared their location", body, data: input.data });
}

/**
 * POST /scan/:encryptedId/location: a finder shares where they are, with consent (the browser asked
 * them). Kept as a scan row marked locationShared that the owner sees in the scan list and on the tag's
 * map. The owner is told (FINDER_LOCATION_SHARED), at most once per client per 10 minutes.
 * An unowned or DEACTIVATED tag takes no location (403), like a contact; an unknown one is 404.
 */
export async function shareFinderLocation(ctx: ServiceContext, encryptedId: string, input: ShareLocationInput, visitor: Visitor): Promise<SharedLocation> {
  return withTransaction(ctx, async (tx) => {
    const tag: Tag = await tagByEncryptedId(tx.db, encryptedId);
    if (!finderCanReachOwner(tag)) throw new ForbiddenError(LOCATION_NOT_ACCEPTED);
    const alreadyAlerted = await clientRowWithin(tx.db, tag.id, hashClientIp(visitor.ip), "sharedLocation", SHARE_ALERT_INTERVAL_MS);
    const row = await insertSharedLocationScan(tx.db, tag.id, input, visitor);
    const accuracy = input.accuracy ?? null;
    const byOwner = ctx.actor.kind === "user" && ctx.actor.userId === tag.ownerId;
    if (!alreadyAlerted && !byOwner) {
      await notifyLocationShared(tx, {
        ownerId: tag.ownerId!,
        itemName: tag.itemName,
        inConversation: false,
        accuracy,
        data: { tagId: tag.id, scanId: row.id, latitude: input.latitude, longitude: input.longitude, accuracy },
      });
    }
    return { message: "Thank you. The owner can now see where you are.", sharedAt: row.scannedAt.toISOString() };
  });
}
