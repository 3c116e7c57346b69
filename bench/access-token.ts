/**
 * The access token and keyed IP hash of lib/auth, rebuilt from AUTH_SECRET without the app's modules, for
 * the bench runner (it signs the bench user's tokens itself, so a long run never meets the 15-minute
 * expiry) and the bare baseline server (bench/baseline-server.ts), which must check tokens exactly as
 * lib/auth/access-token.ts does: HKDF-SHA256(AUTH_SECRET, salt "tag-service", info = purpose), HS256,
 * issuer "tag-service", audience "tag-service-api", `typ: "access"`, `sid` and `sub`.
 */
import { createHmac, hkdfSync } from "node:crypto";
import { errors, jwtVerify, SignJWT } from "jose";

const ISSUER = "tag-service";
const AUDIENCE = "tag-service-api";
const TTL_SECONDS = 15 * 60;

export function derivedKey(secret: string, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "tag-service", purpose, length));
}

export function accessTokenKey(secret: string): Uint8Array {
  return derivedKey(secret, "access-token-hs256");
}

export async function signAccessToken(key: Uint8Array, claims: { userId: string; sessionId: string }): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid: claims.sessionId, typ: "access" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TTL_SECONDS)
    .sign(key);
}

const importedKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
const verifiedTokens = new Map<string, { claims: { userId: string; sessionId: string }; expiresAt: number }>();

/** As lib/auth/access-token.ts checks it: the key imported once, and a token already verified only has its expiry checked again. */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<{ userId: string; sessionId: string } | null> {
  const known = verifiedTokens.get(token);
  if (known) return known.expiresAt <= Math.floor(Date.now() / 1000) ? null : known.claims;
  let imported = importedKeys.get(key);
  if (!imported) importedKeys.set(key, (imported = crypto.subtle.importKey("raw", new Uint8Array(key), { name: "HMAC", hash: "SHA-256" }, false, ["verify"])));
  try {
    const { payload } = await jwtVerify(token, await imported, { algorithms: ["HS256"], issuer: ISSUER, audience: AUDIENCE, requiredClaims: ["sub", "sid", "exp", "iat"] });
    if (payload.typ !== "access" || typeof payload.sid !== "string" || typeof payload.sub !== "string") return null;
    const claims = { userId: payload.sub, sessionId: payload.sid };
    if (verifiedTokens.size >= 10_000) verifiedTokens.delete(verifiedTokens.keys().next().value!);
    verifiedTokens.set(token, { claims, expiresAt: payload.exp! });
    return claims;
  } catch (error) {
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}

/** lib/services/visitor.ts hashClientIp: HMAC-SHA256 under the "client-ip" key; `key` is derivedKey(secret, "client-ip"). */
export function hashClientIp(key: Buffer, ip: string): string | null {
  return ip && ip !== "unknown" ? createHmac("sha256", key).update(ip).digest("hex") : null;
}
