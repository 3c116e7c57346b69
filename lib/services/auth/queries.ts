import { and, eq, gt, isNotNull, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import type { User } from "@/db/schema";
import { hashToken, randomToken } from "@/lib/auth/tokens";
import { decryptSecret, verifyTotp } from "@/lib/auth/totp";
import { announceRevokedCredentials } from "@/lib/realtime/channel";
import type { CallerUser } from "@/lib/services/context";
import { NotFoundError, ValidationError } from "@/lib/services/errors";
import { hashBackupCode, normalizeBackupCode } from "./backup-codes";

/**
 * The auth domain's reads and writes on a bare database handle (or an open transaction): the building
 * blocks its verbs, the request context and the seed share. Routes, actions and pages use the verbs in
 * lib/services/auth (index.ts) instead.
 */

/** lastUsedAt of a session or an API key is written at most this often, so authenticating stays a read. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export async function findUserByEmail(db: Executor, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(schema.users).where(eq(sql`lower(${schema.users.email})`, email.trim().toLowerCase()));
  return user;
}

export async function getUserById(db: Executor, id: string): Promise<User> {
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, id));
  if (!user) throw new NotFoundError("User not found.");
  return user;
}

/**
 * The user's columns a signed-in request needs (authorisation: role, suspension; and GET /auth/me, which
 * reuses them instead of loading the user again). Never the password hash: a credential check has no use
 * for it, and what is not read cannot leak.
 */
export const callerUserColumns: { [K in keyof CallerUser]: (typeof schema.users)[K] } = {
  id: schema.users.id,
  email: schema.users.email,
  firstName: schema.users.firstName,
  lastName: schema.users.lastName,
  phone: schema.users.phone,
  role: schema.users.role,
  emailVerified: schema.users.emailVerified,
  twoFactorEnabled: schema.users.twoFactorEnabled,
  subscription: schema.users.subscription,
  suspendedAt: schema.users.suspendedAt,
  createdAt: schema.users.createdAt,
};

export type { CallerUser };

const liveSessionQueries = new WeakMap<Executor, ReturnType<typeof prepareLiveSession>>();

function prepareLiveSession(db: Executor) {
  return db
    .select({ sessionId: schema.sessions.id, lastUsedAt: schema.sessions.lastUsedAt, user: callerUserColumns })
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .where(and(eq(schema.sessions.id, sql.placeholder("sessionId")), isNull(schema.sessions.revokedAt), gt(schema.sessions.expiresAt, sql.placeholder("now"))))
    .prepare("live_session");
}

/**
 * Sessions (and API keys) this process wrote lastUsedAt for, and when: concurrent requests of one session
 * all read the old value, and only the first of them sends the update. Bounded: cleared when it grows large
 * (the conditional UPDATE below still keeps the write to one a minute).
 */
const touchedAt = new Map<string, number>();
const TOUCH_MEMO_LIMIT = 10_000;

/** Whether this request should write lastUsedAt (claims the write for this process when it should). */
function claimTouch(key: string, lastUsedAt: Date | null, now: Date): boolean {
  const at = now.getTime();
  if (lastUsedAt && at - lastUsedAt.getTime() <= TOUCH_INTERVAL_MS) return false;
  const previous = touchedAt.get(key);
  if (previous !== undefined && at - previous <= TOUCH_INTERVAL_MS) return false;
  if (touchedAt.size >= TOUCH_MEMO_LIMIT) touchedAt.clear();
  touchedAt.set(key, at);
  return true;
}

/**
 * Writes the session's lastUsedAt unless it was written in the last minute: the condition is in the UPDATE,
 * so however many requests (or instances) race, one write a minute goes through. True when it wrote.
 */
export async function touchSession(db: Executor, sessionId: string, now = new Date()): Promise<boolean> {
  const touched = await db
    .update(schema.sessions)
    .set({ lastUsedAt: now })
    .where(and(eq(schema.sessions.id, sessionId), lt(schema.sessions.lastUsedAt, new Date(now.getTime() - TOUCH_INTERVAL_MS))))
    .returning({ id: schema.sessions.id });
  return touched.length > 0;
}

/** The session and its user when the session is neither revoked nor expired (one prepared statement). */
export async function findLiveSession(db: Executor, sessionId: string, now = new Date()): Promise<{ session: { id: string; lastUsedAt: Date }; user: CallerUser } | null> {
  const [row] = await preparedFor(liveSessionQueries, db, prepareLiveSession).execute({ sessionId, now: now.toISOString() });
  if (!row) return null;
  if (claimTouch(`session:${sessionId}`, row.lastUsedAt, now)) await touchSession(db, sessionId, now);
  return { session: { id: row.sessionId, lastUsedAt: row.lastUsedAt }, user: row.user };
}

/**
 * Revokes the live sessions matching `where` (always narrowed to live ones) and announces them, so their
 * notification streams close on every instance; returns their ids. Every session revocation goes here.
 */
export async function revokeSessionsWhere(db: Executor, where: SQL | undefined, now = new Date()): Promise<string[]> {
  const revoked = await db
    .update(schema.sessions)
    .set({ revokedAt: now })
    .where(and(where, isNull(schema.sessions.revokedAt)))
    .returning({ id: schema.sessions.id });
  const ids = revoked.map((row) => row.id);
  await announceRevokedCredentials(db, "session", ids);
  return ids;
}

export async function revokeSessionById(db: Executor, sessionId: string, now = new Date()): Promise<void> {
  await revokeSessionsWhere(db, eq(schema.sessions.id, sessionId), now);
}

/** Revokes every live session of a user, except `keepSessionId` when given (password change). */
export async function revokeUserSessions(db: Executor, userId: string, keepSessionId?: string, now = new Date()): Promise<number> {
  const where = and(eq(schema.sessions.userId, userId), keepSessionId ? ne(schema.sessions.id, keepSessionId) : undefined);
  return (await revokeSessionsWhere(db, where, now)).length;
}

/** Housekeeping: rotated and expired refresh tokens are worth keeping only while their session may be replayed. */
export async function purgeExpiredRefreshTokens(db: Executor, now = new Date()): Promise<void> {
  await db.delete(schema.refreshTokens).where(or(lt(schema.refreshTokens.expiresAt, now)));
}

/** Revokes the live API keys matching `where` and announces them (their streams close); returns their ids. */
export async function revokeApiKeysWhere(db: Executor, where: SQL | undefined, now = new Date()): Promise<string[]> {
  const revoked = await db
    .update(schema.apiKeys)
    .set({ revokedAt: now })
    .where(and(where, isNull(schema.apiKeys.revokedAt)))
    .returning({ id: schema.apiKeys.id });
  const ids = revoked.map((row) => row.id);
  await announceRevokedCredentials(db, "api-key", ids);
  return ids;
}

/** Revokes every live key of a user (the seeded admin taking over a registered account); returns how many. */
export async function revokeUserApiKeys(db: Executor, userId: string, now = new Date()): Promise<number> {
  return (await revokeApiKeysWhere(db, eq(schema.apiKeys.userId, userId), now)).length;
}

/** The key's id and user when the key exists, is not revoked and has not expired; lastUsedAt kept (once a minute). */
export async function authenticateApiKey(db: Executor, key: string, now = new Date()): Promise<{ apiKeyId: string; user: CallerUser } | null> {
  if (!/^tag_(live|test|dev)_[0-9A-Za-z]{32,}$/.test(key)) return null;
  const [row] = await db
    .select({ apiKeyId: schema.apiKeys.id, lastUsedAt: schema.apiKeys.lastUsedAt, user: callerUserColumns })
    .from(schema.apiKeys)
    .innerJoin(schema.users, eq(schema.users.id, schema.apiKeys.userId))
    .where(and(eq(schema.apiKeys.keyHash, hashToken(key)), isNull(schema.apiKeys.revokedAt), or(isNull(schema.apiKeys.expiresAt), gt(schema.apiKeys.expiresAt, now))));
  if (!row) return null;
  if (claimTouch(`api-key:${row.apiKeyId}`, row.lastUsedAt, now)) {
    const stale = or(isNull(schema.apiKeys.lastUsedAt), lt(schema.apiKeys.lastUsedAt, new Date(now.getTime() - TOUCH_INTERVAL_MS)));
    await db.update(schema.apiKeys).set({ lastUsedAt: now }).where(and(eq(schema.apiKeys.id, row.apiKeyId), stale));
  }
  return { apiKeyId: row.apiKeyId, user: row.user };
}

/**
 * Whether the user is suspended. A suspension also revokes every credential, yet those credentials must
 * still answer 403 (suspended), not 401 (signed out): route() asks this of a credential that is otherwise valid.
 */
export async function isUserSuspended(db: Executor, userId: string): Promise<boolean> {
  const [row] = await db.select({ suspendedAt: schema.users.suspendedAt }).from(schema.users).where(eq(schema.users.id, userId));
  return Boolean(row?.suspendedAt);
}

/** Whether a key, whatever its state (revoked, expired), is one of a suspended user's. */
export async function isApiKeyOfSuspendedUser(db: Executor, key: string): Promise<boolean> {
  if (!/^tag_(live|test|dev)_[0-9A-Za-z]{32,}$/.test(key)) return false;
  const [row] = await db
    .select({ suspendedAt: schema.users.suspendedAt })
    .from(schema.apiKeys)
    .innerJoin(schema.users, eq(schema.users.id, schema.apiKeys.userId))
    .where(eq(schema.apiKeys.keyHash, hashToken(key)));
  return Boolean(row?.suspendedAt);
}

/** The user of a key that is neither revoked nor expired, looked up by the key's id; null otherwise. */
export async function findLiveApiKeyUser(db: Executor, apiKeyId: string, now = new Date()): Promise<CallerUser | null> {
  const [row] = await db
    .select({ user: callerUserColumns })
    .from(schema.apiKeys)
    .innerJoin(schema.users, eq(schema.users.id, schema.apiKeys.userId))
    .where(and(eq(schema.apiKeys.id, apiKeyId), isNull(schema.apiKeys.revokedAt), or(isNull(schema.apiKeys.expiresAt), gt(schema.apiKeys.expiresAt, now))));
  return row?.user ?? null;
}

/** Turns two-factor off for a user: the secret (pending or confirmed) and the backup codes go. */
export async function removeTwoFactor(db: Executor, userId: string): Promise<void> {
  await db.delete(schema.twoFactorSecrets).where(eq(schema.twoFactorSecrets.userId, userId));
  await db.delete(schema.backupCodes).where(eq(schema.backupCodes.userId, userId));
  await db.update(schema.users).set({ twoFactorEnabled: false }).where(eq(schema.users.id, userId));
}

export type UserTokenPurpose = "EMAIL_VERIFICATION" | "PASSWORD_RESET";

export const USER_TOKEN_TTL_MS: Record<UserTokenPurpose, number> = {
  EMAIL_VERIFICATION: 24 * 60 * 60 * 1000,
  PASSWORD_RESET: 60 * 60 * 1000,
};

/** Issues a single-use token (stored hashed); earlier unused tokens of the same purpose stop working. */
export async function issueUserToken(db: Executor, userId: string, purpose: UserTokenPurpose, now = new Date()): Promise<string> {
  await retireUserTokens(db, userId, purpose, now);
  const token = randomToken(32);
  await db.insert(schema.userTokens).values({ userId, purpose, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + USER_TOKEN_TTL_MS[purpose]), createdAt: now });
  return token;
}

/** Makes a user's unused tokens of one purpose stop working (marked used). */
export async function retireUserTokens(db: Executor, userId: string, purpose: UserTokenPurpose, now = new Date()): Promise<void> {
  await db
    .update(schema.userTokens)
    .set({ usedAt: now })
    .where(and(eq(schema.userTokens.userId, userId), eq(schema.userTokens.purpose, purpose), isNull(schema.userTokens.usedAt)));
}

/**
 * Marks the token used and returns its user id. Unknown, used and expired tokens are one answer:
 * 400 VALIDATION_ERROR on `token` (docs/decisions/0010-verification-and-reset.md). The update is the check, so two racing uses can't both win.
 */
export async function consumeUserToken(db: Executor, token: string, purpose: UserTokenPurpose, now = new Date()): Promise<string> {
  const [row] = await db
    .update(schema.userTokens)
    .set({ usedAt: now })
    .where(and(eq(schema.userTokens.tokenHash, hashToken(token)), eq(schema.userTokens.purpose, purpose), isNull(schema.userTokens.usedAt), gt(schema.userTokens.expiresAt, now)))
    .returning({ userId: schema.userTokens.userId });
  if (!row) throw ValidationError.field("token", "This link is invalid, expired or already used.");
  return row.userId;
}

/**
 * Accepts a current TOTP code (each time step once: the step is recorded atomically, so a replay or a
 * concurrent second use fails) or an unused backup code (marked used). False otherwise.
 */
export async function consumeSecondFactor(db: Executor, userId: string, code: string, now = new Date()): Promise<boolean> {
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const [secret] = await db
      .select()
      .from(schema.twoFactorSecrets)
      .where(and(eq(schema.twoFactorSecrets.userId, userId), isNotNull(schema.twoFactorSecrets.confirmedAt)));
    if (!secret) return false;
    const step = await verifyTotp(decryptSecret(secret.secretEncrypted), trimmed, { lastTimeStep: secret.lastTimeStep, now });
    if (step === null) return false;
    const claimed = await db
      .update(schema.twoFactorSecrets)
      .set({ lastTimeStep: step })
      .where(and(eq(schema.twoFactorSecrets.userId, userId), or(isNull(schema.twoFactorSecrets.lastTimeStep), lt(schema.twoFactorSecrets.lastTimeStep, step))))
      .returning({ userId: schema.twoFactorSecrets.userId });
    return claimed.length === 1;
  }
  if (normalizeBackupCode(trimmed).length < 8) return false;
  const used = await db
    .update(schema.backupCodes)
    .set({ usedAt: now })
    .where(and(eq(schema.backupCodes.userId, userId), eq(schema.backupCodes.codeHash, hashBackupCode(trimmed)), isNull(schema.backupCodes.usedAt)))
    .returning({ id: schema.backupCodes.id });
  return used.length === 1;
}
