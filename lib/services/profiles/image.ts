import sharp from "sharp";
import { ValidationError } from "@/lib/services/errors";

export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
/** Longest side of a stored photo; larger images are scaled down. */
export const MAX_PHOTO_DIMENSION = 2048;
/** Refuses decompression bombs before decoding (about 50 megapixels). */
const MAX_INPUT_PIXELS = 50_000_000;

export type PhotoFormat = "jpeg" | "png" | "webp";

const contentTypes: Record<PhotoFormat, string> = { jpeg: "image/jpeg", png: "image/png", webp: "image/webp" };

/** The image type by its first bytes; the client's name and content type are never trusted. */
export function sniffImageFormat(bytes: Uint8Array): PhotoFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((byte, i) => bytes[i] === byte)) return "png";
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString("latin1");
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}

export interface ProcessedPhoto {
  data: Buffer;
  contentType: string;
  width: number;
  height: number;
  byteSize: number;
}

const fileError = (message: string) => ValidationError.field("file", message);

/**
 * Checks and re-encodes an uploaded photo: JPEG, PNG or WebP by content, at most 5 MB; turned upright
 * by its EXIF orientation, scaled to fit 2048 px, and written in the same format without any metadata
 * (sharp writes no EXIF, XMP or IPTC unless asked, so GPS positions and camera details are gone).
 */
export async function processPhoto(bytes: Buffer): Promise<ProcessedPhoto> {
  if (bytes.length === 0) throw fileError("The file is empty.");
  if (bytes.length > MAX_PHOTO_BYTES) throw fileError("The photo must be 5 MB or smaller.");
  const format = sniffImageFormat(bytes);
  if (!format) throw fileError("The file must be a JPEG, PNG or WebP image.");

  try {
    const image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
      .autoOrient()
      .resize({ width: MAX_PHOTO_DIMENSION, height: MAX_PHOTO_DIMENSION, fit: "inside", withoutEnlargement: true });
    const encoded = format === "jpeg" ? image.jpeg({ quality: 85 }) : format === "png" ? image.png() : image.webp({ quality: 85 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { data, contentType: contentTypes[format], width: info.width, height: info.height, byteSize: data.length };
  } catch {
    throw fileError("The file could not be read as an image.");
  }
}
