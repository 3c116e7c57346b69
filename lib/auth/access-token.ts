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
    const imported = crypto.subtle.importKey("raw", new Uint8Array(derivedKey("access-token-hs256").export()), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
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

/** Verified tokens per instance, at most this many (the oldest verified first out): a few MB at most. */
export const VERIFIED_TOKENS_KEPT = 10_000;

interface VerifiedToken {
  secret: string;
  claims: AccessClaims;
  /** The token's `exp`, in seconds since the epoch. */
  expiresAt: number;
}

/**
 * Tokens already verified, by their exact text. A client sends one token for up to 15 minutes, so the HMAC
 * check (about a fifth of a bearer read's own CPU) runs once per token and instance; every later request
 * with the same bytes only has its expiry checked again. Nothing is cached for a token that failed, and the
 * session behind a token is still read on every request (a revoked session is refused at once).
 */
const verifiedTokens = new Map<string, VerifiedToken>();

function rememberVerified(token: string, entry: VerifiedToken): void {
  if (verifiedTokens.size >= VERIFIED_TOKENS_KEPT) {
    const oldest = verifiedTokens.keys().next().value;
    if (oldest !== undefined) verifiedTokens.delete(oldest);
  }
  verifiedTokens.set(token, entry);
}

/** How many verified tokens this instance keeps now (diagnostics and tests). */
export function verifiedAccessTokensKept(): number {
  return verifiedTokens.size;
}

/** jose's rule: a token whose `exp` is at or before the current second has expired. */
const expired = (expiresAt: number, now: Date) => expiresAt <= Math.floor(now.getTime() / 1000);

/** The claims of a valid, unexpired access token; null for anything else (refresh tokens included). */
export async function verifyAccessToken(token: string, now = new Date()): Promise<AccessClaims | null> {
  const secret = authSecret();
  const known = verifiedTokens.get(token);
  if (known && known.secret === secret) return expired(known.expiresAt, now) ? null : known.claims;
  try {
    const { payload } = await jwtVerify(token, await key(), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: now,
      requiredClaims: ["sub", "sid", "exp", "iat"],
    });
    if (payload.typ !== "access" || typeof payload.sid !== "string" || typeof payload.sub !== "string") return null;
    const claims = { userId: payload.sub, sessionId: payload.sid };
    rememberVerified(token, { secret, claims, expiresAt: payload.exp! });
    return claims;
  } catch (error) {
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}
