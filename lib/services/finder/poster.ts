import { eq } from "drizzle-orm";
import { z } from "zod";
import { schema } from "@/db/client";
import { env } from "@/lib/env";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ConflictError } from "@/lib/services/errors";
import { listPhotos, readTypedProfile } from "@/lib/services/profiles";
import { activeReward, type RewardOffer } from "@/lib/services/rewards";
import type { PublicDetails } from "@/lib/services/scans";
import { formatTagCode, ownedTag, scanUrl, tagQrCode, type TagStatus } from "@/lib/services/tags";
import { publicDetailsOf } from "./view";

export interface LostPoster {
  tagId: string;
  status: TagStatus;
  /** Only a LOST or STOLEN tag gets a poster. */
  printable: boolean;
  itemName: string | null;
  description: string | null;
  /** The owner's own message for finders (the poster states LOST or STOLEN itself). */
  lostMessage: string | null;
  /** Where and when the owner last saw the item, as the owner wrote them (printed as written). */
  lastSeenPlace: string | null;
  lastSeenWhen: string | null;
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
    lastSeenPlace: tag.lastSeenPlace,
    lastSeenWhen: tag.lastSeenWhen,
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

const lastSeenText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters.`)
    .transform((value) => value || null)
    .nullable()
    .optional();

/**
 * What the owner tells passers-by on the poster: the place ("Riverside Park, near the east gate") and the
 * time ("Saturday 14 June, around 6 pm"), each as written. Free text, not a timestamp: a poster prints
 * what a person would say, including "around" and "evening", in the owner's words and time zone.
 */
export const lastSeenInput = z.object({ lastSeenPlace: lastSeenText(120), lastSeenWhen: lastSeenText(80) });

/** Sets where and when the item was last seen; only while the tag is LOST or STOLEN (409 otherwise). */
export async function setLastSeen(ctx: ServiceContext, tagId: string, input: z.output<typeof lastSeenInput>): Promise<LostPoster> {
  requireUser(ctx);
  await withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, tagId, { lock: true });
    if (tag.status !== "LOST" && tag.status !== "STOLEN") throw new ConflictError("Where and when it was last seen goes with a lost or stolen tag.", { status: tag.status });
    await tx.db.update(schema.tags).set({ lastSeenPlace: input.lastSeenPlace ?? null, lastSeenWhen: input.lastSeenWhen ?? null }).where(eq(schema.tags.id, tag.id));
  });
  return getLostPoster(ctx, tagId);
}
