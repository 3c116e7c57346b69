import { errors, jwtVerify, SignJWT } from "jose";
import { authSecret } from "@/lib/secrets";
import { derivedKey } from "./tokens";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = "tag-service";
const AUDIENCE = "tag-service-api";

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

let cachedKey: { secret: string; key: Promise<CryptoKey> } | undefined;

/**
 * The HMAC key, derived from AUTH_SECRET (HKDF) and imported once per secret: given raw bytes, jose imports
 * them into WebCrypto on every sign and verify, which was most of a bearer request's JWT cost.
 */
function key(): Promise<CryptoKey> {
  const secret = authSecret();
  if (cachedKey?.secret !== secret) {
    const imported = crypto.subtle.importKey("raw", new Uint8Array(derivedKey("access-token-hs256")), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    cachedKey = { secret, key: imported };
  }
  return cachedKey.key;
}

/** A 15-minute HS256 JWT with `sub` (user) and `sid` (session). */
export async function signAccessToken(claims: AccessClaims, now = new Date()): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sid: claims.sessionId, typ: "access" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(await key());
}

/** The claims of a valid, unexpired access token; null for anything else (refresh tokens included). */
export async function verifyAccessToken(token: string, now = new Date()): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await key(), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: now,
      requiredClaims: ["sub", "sid", "exp", "iat"],
    });
    if (payload.typ !== "access" || typeof payload.sid !== "string" || typeof payload.sub !== "string") return null;
    return { userId: payload.sub, sessionId: payload.sid };
  } catch (error) {
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}
