import QRCode from "qrcode";
import type { ServiceContext } from "@/lib/services/context";
import { ownedTag } from "./access";
import { scanUrl } from "./codes";

export type QrFormat = "svg" | "png";

export interface QrImage {
  contentType: string;
  body: string | Uint8Array;
  filename: string;
}

/** The tag's scan URL as a QR code (owner only), for printing a replacement label. */
export async function tagQrCode(ctx: ServiceContext, tagId: string, format: QrFormat): Promise<QrImage> {
  const tag = await ownedTag(ctx, tagId);
  const url = scanUrl(tag.encryptedId);
  const options = { errorCorrectionLevel: "M" as const, margin: 2 };
  if (format === "svg") {
    return { contentType: "image/svg+xml", body: await QRCode.toString(url, { ...options, type: "svg" }), filename: `tag-${tag.id}.svg` };
  }
  const png = await QRCode.toBuffer(url, { ...options, type: "png", width: 512 });
  return { contentType: "image/png", body: new Uint8Array(png), filename: `tag-${tag.id}.png` };
}
