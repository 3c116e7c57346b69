import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { signAccessToken } from "@/lib/auth/access-token";
import { maskIp } from "@/lib/auth/ip";
import { hashToken, randomToken } from "@/lib/auth/tokens";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "@/lib/services/errors";
import { revokeSessionById, revokeSessionsWhere, revokeUserSessions } from "./queries";

export const REFRESH_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type SessionKind = "API" | "WEB";

export interface ClientInfo {
  userAgent?: string | null;
  ip?: string | null;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

async function issueRefreshToken(db: Executor, sessionId: string, now: Date): Promise<string> {
  const refreshToken = randomToken(32);
  await db.insert(schema.refreshTokens).values({ sessionId, tokenHash: hashToken(refreshToken), expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS) });
  return refreshToken;
}

/** Records a sign-in. API sessions also get an access token and a refresh token. */
export async function createSession(ctx: ServiceContext, input: { userId: string; kind: SessionKind; client: ClientInfo; now?: Date }) {
  const now = input.now ?? new Date();
  return withTransaction(ctx, async (tx) => {
    const [session] = await tx.db
      .insert(schema.sessions)
      .values({
        userId: input.userId,
        kind: input.kind,
        userAgent: input.client.userAgent?.slice(0, 500) ?? null,
        ipAddress: input.client.ip ? maskIp(input.client.ip) : null,
        createdAt: now,
        lastUsedAt: now,
        expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
      })
      .returning();
    if (!session) throw new Error("session insert returned nothing");
    if (input.kind === "WEB") return { session, tokens: null };
    const refreshToken = await issueRefreshToken(tx.db, session.id, now);
    const accessToken = await signAccessToken({ userId: input.userId, sessionId: session.id }, now);
    return { session, tokens: { accessToken, refreshToken } satisfies TokenPair };
  });
}

/**
 * Rotates a refresh token. A token that was already rotated is reuse (a stolen copy or a replay):
 * the whole session is revoked and the caller must sign in again.
 */
export async function refreshSession(ctx: ServiceContext, refreshToken: string, now = new Date()): Promise<TokenPair> {
  const outcome = await withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .select({ token: schema.refreshTokens, session: schema.sessions, user: schema.users })
      .from(schema.refreshTokens)
      .innerJoin(schema.sessions, eq(schema.sessions.id, schema.refreshTokens.sessionId))
      .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
      .where(eq(schema.refreshTokens.tokenHash, hashToken(refreshToken)))
      .for("update", { of: schema.refreshTokens });
    if (!row) return { error: "invalid" as const };
    if (row.token.rotatedAt) {
      await revokeSessionById(tx.db, row.session.id, now);
      return { error: "reused" as const };
    }
    // Suspension revokes the session too: its refresh token still says "suspended", not "signed out".
    if (row.user.suspendedAt) return { error: "suspended" as const };
    if (row.session.revokedAt || row.token.expiresAt <= now || row.session.expiresAt <= now) return { error: "invalid" as const };
    await tx.db.update(schema.refreshTokens).set({ rotatedAt: now }).where(eq(schema.refreshTokens.id, row.token.id));
    const next = await issueRefreshToken(tx.db, row.session.id, now);
    await tx.db
      .update(schema.sessions)
      .set({ lastUsedAt: now, expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS) })
      .where(eq(schema.sessions.id, row.session.id));
    return { tokens: { accessToken: await signAccessToken({ userId: row.user.id, sessionId: row.session.id }, now), refreshToken: next } };
  });
  // The revocation on reuse must commit, so the error is raised after the transaction.
  if ("error" in outcome) {
    if (outcome.error === "suspended") throw new ForbiddenError("This account is suspended.");
    throw new UnauthorizedError(outcome.error === "reused" ? "This refresh token was already used; the session has been ended. Please sign in again." : "The refresh token is invalid or expired.");
  }
  return outcome.tokens;
}

/** POST /auth/logout: ends the session the caller authenticated with. */
export async function logout(ctx: ServiceContext): Promise<{ message: string }> {
  const { sessionId } = requireUser(ctx);
  if (sessionId) await revokeSessionById(ctx.db, sessionId);
  return { message: "Signed out." };
}

export interface SessionView {
  id: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: string;
  lastUsedAt: string;
  current: boolean;
}

/** GET /auth/sessions: the caller's live sessions, newest first. */
export async function listSessions(ctx: ServiceContext, now = new Date()): Promise<SessionView[]> {
  const { userId, sessionId } = requireUser(ctx);
  const rows = await ctx.db
    .select()
    .from(schema.sessions)
    .where(and(eq(schema.sessions.userId, userId), isNull(schema.sessions.revokedAt), gt(schema.sessions.expiresAt, now)))
    .orderBy(desc(schema.sessions.lastUsedAt));
  return rows.map((row) => ({
    id: row.id,
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    current: row.id === sessionId,
  }));
}

/** DELETE /auth/sessions/:id: another user's session is indistinguishable from a missing one. */
export async function revokeSession(ctx: ServiceContext, id: string): Promise<{ message: string }> {
  const { userId } = requireUser(ctx);
  const revoked = await revokeSessionsWhere(ctx.db, and(eq(schema.sessions.id, id), eq(schema.sessions.userId, userId)));
  if (!revoked.length) throw new NotFoundError("Session not found.");
  return { message: "Session revoked." };
}

/** DELETE /auth/sessions: every session but the current one. */
export async function revokeOtherSessions(ctx: ServiceContext): Promise<{ message: string; count: number }> {
  const { userId, sessionId } = requireUser(ctx);
  const count = await revokeUserSessions(ctx.db, userId, sessionId);
  return { message: `${count} other session${count === 1 ? "" : "s"} revoked.`, count };
}

