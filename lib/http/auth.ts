import type { Executor } from "@/db/client";
import { verifyAccessToken } from "@/lib/auth/access-token";
import { decodeSessionCookie, readSessionCookie } from "@/lib/auth/session-cookie";
import { appOrigin } from "@/lib/env";
import { ForbiddenError, UnauthorizedError } from "@/lib/services/errors";
import { authenticateApiKey, type CallerUser, findLiveSession, isApiKeyOfSuspendedUser, isUserSuspended } from "@/lib/services/auth";

/** Who sent the request, as resolved from its credentials. */
export type Caller =
  | { kind: "anonymous" }
  | {
      kind: "user";
      userId: string;
      role: "USER" | "ADMIN" | "SUPER_ADMIN";
      via: "bearer" | "api-key" | "cookie";
      sessionId?: string;
      apiKeyId?: string;
      /** The user as the credential check loaded it (no password hash), for handlers that show it. */
      user: CallerUser;
    };

export interface CallerResolution {
  req: Request;
  db: Executor;
  ip: string;
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const SUSPENDED = "This account is suspended.";

function activeUser(user: CallerUser): CallerUser {
  if (user.suspendedAt) throw new ForbiddenError(SUSPENDED);
  return user;
}

/**
 * The single place route() asks who is calling, in this order: `Authorization: Bearer` (our access
 * JWT, whose session must still be live), `X-API-Key`, then the session cookie. A bad bearer token or
 * API key is 401; a stale cookie is simply no credential. Any credential of a suspended user is 403,
 * even once revoked (suspension revokes them all). A cookie is honoured for unsafe methods only
 * when the request's Origin is the app's own (403 otherwise): cookies never work cross-origin.
 */
export async function resolveCaller({ req, db }: CallerResolution): Promise<Caller> {
  const authorization = req.headers.get("authorization");
  if (authorization) {
    const [scheme, token, extra] = authorization.trim().split(/\s+/);
    if (scheme?.toLowerCase() !== "bearer" || !token || extra) throw new UnauthorizedError("Use `Authorization: Bearer <access token>`.");
    const claims = await verifyAccessToken(token);
    if (!claims) throw new UnauthorizedError("The access token is invalid or expired.");
    const live = await findLiveSession(db, claims.sessionId);
    if (!live || live.user.id !== claims.userId) {
      // A suspension revokes every session; the token of one still says "suspended", not "signed out".
      if (await isUserSuspended(db, claims.userId)) throw new ForbiddenError(SUSPENDED);
      throw new UnauthorizedError("This session has ended. Please sign in again.");
    }
    const user = activeUser(live.user);
    return { kind: "user", userId: user.id, role: user.role, via: "bearer", sessionId: live.session.id, user };
  }

  const apiKey = req.headers.get("x-api-key");
  if (apiKey) {
    const found = await authenticateApiKey(db, apiKey.trim());
    if (!found) {
      if (await isApiKeyOfSuspendedUser(db, apiKey.trim())) throw new ForbiddenError(SUSPENDED);
      throw new UnauthorizedError("The API key is invalid, revoked or expired.");
    }
    const user = activeUser(found.user);
    return { kind: "user", userId: user.id, role: user.role, via: "api-key", apiKeyId: found.apiKeyId, user };
  }

  const cookie = readSessionCookie(req.headers.get("cookie"));
  if (cookie) {
    const claims = await decodeSessionCookie(cookie);
    const live = claims ? await findLiveSession(db, claims.sessionId) : null;
    if (!claims || !live || live.user.id !== claims.userId) {
      if (claims && (await isUserSuspended(db, claims.userId))) throw new ForbiddenError(SUSPENDED);
      return { kind: "anonymous" };
    }
    if (UNSAFE_METHODS.has(req.method.toUpperCase()) && req.headers.get("origin") !== appOrigin()) {
      throw new ForbiddenError("Cookie-authenticated requests must come from this site.");
    }
    const user = activeUser(live.user);
    return { kind: "user", userId: user.id, role: user.role, via: "cookie", sessionId: live.session.id, user };
  }

  return { kind: "anonymous" };
}

export function isAdmin(caller: Caller): boolean {
  return caller.kind === "user" && (caller.role === "ADMIN" || caller.role === "SUPER_ADMIN");
}
