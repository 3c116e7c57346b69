import QRCode from "qrcode";
import { and, asc, eq, ne } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireUser, type ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { formatTagCode, ownedTag, type TagStatus } from "@/lib/services/tags";
import { emergencyPageUrl } from "./public-view";

export interface EmergencyCardTag {
  id: string;
  code: string;
  itemName: string | null;
  status: TagStatus;
}

/** The caller's tags whose emergency page works (every owned tag but a DEACTIVATED one), oldest first. */
export async function emergencyCardTags(ctx: ServiceContext): Promise<EmergencyCardTag[]> {
  const { userId } = requireUser(ctx);
  const rows = await ctx.db
    .select({ id: schema.tags.id, code: schema.tags.code, itemName: schema.tags.itemName, status: schema.tags.status })
    .from(schema.tags)
    .where(and(eq(schema.tags.ownerId, userId), ne(schema.tags.status, "DEACTIVATED")))
    .orderBy(asc(schema.tags.createdAt), asc(schema.tags.id));
  return rows.map((row) => ({ ...row, code: formatTagCode(row.code) }));
}

/**
 * The QR code (SVG markup) of one of the caller's tags' emergency page, for the wallet ICE card.
 * Another user's tag, a missing one and a DEACTIVATED one (its emergency page answers 404) are 404.
 */
export async function emergencyCardQr(ctx: ServiceContext, tagId: string): Promise<{ url: string; svg: string }> {
  const tag = await ownedTag(ctx, tagId);
  if (tag.status === "DEACTIVATED") throw new NotFoundError("A deactivated tag does not open the emergency page.");
  const url = emergencyPageUrl(tag.encryptedId);
  // High error correction: a card in a wallet gets creased and scuffed.
  const svg = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "Q", margin: 1 });
  return { url, svg };
}
