import type { Tag } from "@/db/schema";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { ForbiddenError } from "@/lib/services/errors";
import { notify } from "@/lib/services/notifications";
import { hashClientIp, type Visitor } from "@/lib/services/visitor";
import { clientRowWithin, insertSharedLocationScan, tagByEncryptedId } from "./queries";
import type { SharedLocation, ShareLocationInput } from "./schemas";

/** At most one FINDER_LOCATION_SHARED per tag and client in this time; every share is still kept. */
export const SHARE_ALERT_INTERVAL_MS = 10 * 60_000;

export const LOCATION_NOT_ACCEPTED = "This tag's owner cannot be reached through it, so the location was not shared.";

/**
 * Whether a finder can reach the tag's owner (contact, shared location): an owned tag that is not
 * DEACTIVATED (docs/decisions/0020-finder-conversations.md: contacting an unowned or DEACTIVATED tag is 403).
 */
export function finderCanReachOwner(tag: Pick<Tag, "ownerId" | "status">): boolean {
  return tag.ownerId !== null && tag.status !== "DEACTIVATED";
}

const itemLabel = (itemName: string | null) => (itemName ? `“${itemName}”` : "your tag");

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
