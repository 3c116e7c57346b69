import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import { env } from "@/lib/env";
import type { ServiceContext } from "@/lib/services/context";
import { listPhotos, readTypedProfile } from "@/lib/services/profiles/queries";
import { ownedTag } from "@/lib/services/tags/access";
import { formatTagCode, scanUrl } from "@/lib/services/tags/codes";
import { tagQrCode } from "@/lib/services/tags/qr";
import type { TagStatus } from "@/lib/services/tags/transitions";
import type { PublicDetails } from "./schemas";
import { publicDetailsOf } from "./view";
import { activeReward } from "@/lib/services/rewards/rewards";
import type { RewardOffer } from "@/lib/services/rewards/schemas";

export interface LostPoster {
  tagId: string;
  status: TagStatus;
  /** Only a LOST or STOLEN tag gets a poster. */
  printable: boolean;
  itemName: string | null;
  description: string | null;
  /** The owner's own message for finders (the poster states LOST or STOLEN itself). */
  lostMessage: string | null;
  /** The ACTIVE reward (amount in major units, currency); null when none is offered. */
  reward: RewardOffer | null;
  photoUrl: string | null;
  details: PublicDetails;
  /** As printed on the tag: XXXXX-XXXXX. */
  code: string;
  scanUrl: string;
  /** Where someone without a camera types the code. */
  foundUrl: string;
  /** The tag's QR code (its scan URL) as SVG markup made by the qrcode library. */
  qrSvg: string;
  visibility: "PUBLIC" | "PRIVATE";
}

/**
 * The owner's printable lost poster for one tag: the primary photo, what the item is, the owner's
 * message, the QR code and the printed code. The owner prints it for everyone, so it shows the item
 * whatever the profile's visibility; like the scan page it never carries the owner's contact details.
 */
export async function getLostPoster(ctx: ServiceContext, tagId: string): Promise<LostPoster> {
  const tag = await ownedTag(ctx, tagId);
  const [[general], photos, typed, qr, reward] = await Promise.all([
    ctx.db.select({ description: schema.tagProfiles.description }).from(schema.tagProfiles).where(eq(schema.tagProfiles.tagId, tag.id)),
    listPhotos(ctx.db, tag.id),
    readTypedProfile(ctx.db, tag),
    tagQrCode(ctx, tag.id, "svg"),
    // ownedTag answers only the caller's own tag, so ownerId is set (the check narrows its type).
    tag.ownerId ? activeReward(ctx.db, tag.id, tag.ownerId) : null,
  ]);
  const primary = photos.find((photo) => photo.isPrimary) ?? photos[0];
  return {
    tagId: tag.id,
    status: tag.status,
    printable: tag.status === "LOST" || tag.status === "STOLEN",
    itemName: tag.itemName,
    description: general?.description ?? null,
    lostMessage: tag.lostMessage,
    reward,
    photoUrl: primary?.url ?? null,
    details: publicDetailsOf(typed),
    code: formatTagCode(tag.code),
    scanUrl: scanUrl(tag.encryptedId),
    foundUrl: `${env.APP_URL.replace(/\/+$/, "")}/found`,
    qrSvg: typeof qr.body === "string" ? qr.body : new TextDecoder().decode(qr.body),
    visibility: tag.visibility,
  };
}
