import { randomBytes } from "node:crypto";
import { env } from "@/lib/env";

/** Crockford base32: no I, L, O or U, so a printed code can't be misread. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const CODE_LENGTH = 10;

/** A random 10-character code (50 bits). */
export function generateTagCode(): string {
  let code = "";
  for (const byte of randomBytes(CODE_LENGTH)) code += ALPHABET[byte & 31];
  return code;
}

/**
 * The canonical form of a typed or scanned code: case-, space- and hyphen-insensitive, with
 * Crockford's decoding of look-alikes (O→0, I/L→1). Null when it can't be a code.
 */
export function normalizeTagCode(input: string): string | null {
  // ASCII only: Unicode upper-casing would turn "ß" into "SS" or "ı" into "I" and let such input pass.
  if (!/^[0-9A-Za-z\s-]*$/.test(input)) return null;
  const cleaned = input
    .toUpperCase()
    .replace(/[\s-]/g, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
  if (cleaned.length !== CODE_LENGTH) return null;
  for (const char of cleaned) if (!ALPHABET.includes(char)) return null;
  return cleaned;
}

/** As printed: `XXXXX-XXXXX`. */
export function formatTagCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The opaque id in scan URLs: 144 random bits, URL-safe; says nothing of the tag id or code. */
export function newEncryptedId(): string {
  return randomBytes(18).toString("base64url");
}

export function scanUrl(encryptedId: string): string {
  return `${env.APP_URL.replace(/\/+$/, "")}/t/${encryptedId}`;
}

/** Where a finder without a camera types the printed code, as printed on labels: no scheme, shorter to type. */
export function foundAddress(): string {
  return `${env.APP_URL.replace(/^https?:\/\//, "").replace(/\/+$/, "")}/found`;
}
