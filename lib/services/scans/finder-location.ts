import { schema } from "@/db/client";
import type { Tag } from "@/db/schema";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { ForbiddenError } from "@/lib/services/errors";
import { notify } from "@/lib/services/notifications/notify";
import { hashClientIp, type Visitor } from "@/lib/services/visitor";
import { clientRowWithin, tagByEncryptedId } from "./scan-tag";
import type { SharedLocation, ShareLocationInput } from "./schemas";
import { describeUserAgent } from "./user-agents";
import { finderCanReachOwner } from "./view";

/** At most one FINDER_LOCATION_SHARED per tag and client in this time; every share is still kept. */
const SHARE_ALERT_INTERVAL_MS = 10 * 60_000;

export const LOCATION_NOT_ACCEPTED = "This tag's owner cannot be reached through it, so the location was not shared.";

const itemLabel = (tag: Tag) => (tag.itemName ? `“${tag.itemName}”` : "your tag");

/**
 * POST /scan/:encryptedId/location: a finder shares where they are, with consent (the browser asked
 * them). Kept as a scan row marked locationShared (class REAL) that the owner sees in the scan list
 * with a map link; it is not a scan of the tag, so it is neither counted in scanCount nor used by clone
 * detection. The owner is told (FINDER_LOCATION_SHARED), at most once per client per 10 minutes.
 * An unowned or DEACTIVATED tag takes no location (403), like a contact; an unknown one is 404.
 */
export async function shareFinderLocation(ctx: ServiceContext, encryptedId: string, input: ShareLocationInput, visitor: Visitor): Promise<SharedLocation> {
  return withTransaction(ctx, async (tx) => {
    const tag = await tagByEncryptedId(tx.db, encryptedId);
    if (!finderCanReachOwner(tag)) throw new ForbiddenError(LOCATION_NOT_ACCEPTED);
    const ipHash = hashClientIp(visitor.ip);
    const alreadyAlerted = await clientRowWithin(tx.db, tag.id, ipHash, "sharedLocation", SHARE_ALERT_INTERVAL_MS);
    const accuracy = input.accuracy ?? null;
    const [row] = await tx.db
      .insert(schema.scans)
      .values({
        tagId: tag.id,
        ipHash,
        city: visitor.geo?.city ?? null,
        country: visitor.geo?.country ?? null,
        latitude: input.latitude,
        longitude: input.longitude,
        accuracy,
        locationShared: true,
        scanClass: "REAL",
        agent: describeUserAgent(visitor.userAgent),
      })
      .returning({ id: schema.scans.id, scannedAt: schema.scans.scannedAt });
    const byOwner = ctx.actor.kind === "user" && ctx.actor.userId === tag.ownerId;
    if (!alreadyAlerted && !byOwner) {
      await notify(tx, {
        userId: tag.ownerId!,
        type: "FINDER_LOCATION_SHARED",
        title: "A finder shared their location",
        body: `Someone who scanned the tag on ${itemLabel(tag)} shared where they are${accuracy !== null ? ` (to within ${Math.round(accuracy)} m)` : ""}. Open the tag to see the place on a map.`,
        data: { tagId: tag.id, scanId: row!.id, latitude: input.latitude, longitude: input.longitude, accuracy },
      });
    }
    return { message: "Thank you. The owner can now see where you are.", sharedAt: row!.scannedAt.toISOString() };
  });
}
