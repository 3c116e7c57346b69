import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, hkdfSync, randomBytes, timingSafeEqual, type KeyObject } from "node:crypto";
import { authSecret } from "@/lib/secrets";

/** A URL-safe random token of `bytes` bytes (256 bits by default). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * Tokens we issue carry ≥128 bits of randomness, so a fast hash is enough to store them; lookups are
 * by hash, so the secret value is never compared in a timing-sensitive way.
 */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const derivedKeys = new Map<string, KeyObject>();

/**
 * A key for one purpose, derived from AUTH_SECRET (HKDF-SHA256), so no two uses share key material.
 * Derived once per secret, purpose and length (every scan hashes the client's IP under one), and kept as
 * a KeyObject: createHmac and createCipheriv take it as it is, where a Buffer key is checked and copied
 * on every call (about seven times the cost of the hash itself on Node 24). `.export()` gives the bytes.
 */
export function derivedKey(purpose: string, length = 32): KeyObject {
  const secret = authSecret();
  const cacheKey = `${length}\u0000${purpose}\u0000${secret}`;
  let key = derivedKeys.get(cacheKey);
  if (!key) {
    key = createSecretKey(Buffer.from(hkdfSync("sha256", secret, "tag-service", purpose, length)));
    derivedKeys.set(cacheKey, key);
  }
  return key;
}

/** AES-256-GCM under a key for `purpose`, as `iv.tag.ciphertext` in base64url. */
export function sealText(purpose: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derivedKey(purpose), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url")).join(".");
}

/** The text `sealText` sealed for the same purpose; throws when it was altered or sealed for another. */
export function openSealedText(purpose: string, sealed: string): string {
  const [iv, tag, ciphertext] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !ciphertext) throw new Error("malformed sealed text");
  const decipher = createDecipheriv("aes-256-gcm", derivedKey(purpose), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
}

/** A keyed hash (HMAC-SHA256) for values of low entropy we must match but never store in clear (IPs). */
export function keyedHash(purpose: string, value: string): string {
  return createHmac("sha256", derivedKey(purpose)).update(value).digest("hex");
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` uniformly random base62 characters (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let result = "";
  while (result.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && result.length < length) result += BASE62[byte % 62];
    }
  }
  return result;
}
