import { getDatabase, type Database, type Executor, type Transaction } from "@/db/client";
import type { User } from "@/db/schema";
import { ForbiddenError, UnauthorizedError } from "./errors";

/** The user columns a credential check loads (lib/services/auth/queries.ts `callerUserColumns`). */
export type CallerUser = Pick<User, "id" | "email" | "firstName" | "lastName" | "phone" | "role" | "emailVerified" | "twoFactorEnabled" | "subscription" | "suspendedAt" | "createdAt">;

/** Who is acting. Later issues add the thread-token finder and API-key details. */
export type Actor =
  | { kind: "public"; ip: string }
  | { kind: "user"; userId: string; role: "USER" | "ADMIN" | "SUPER_ADMIN"; sessionId?: string; apiKeyId?: string; ip: string }
  | { kind: "system" };

/** What every service function receives: the actor and the database handle (a transaction when one is open). */
export interface ServiceContext {
  actor: Actor;
  db: Executor;
  /** Set while inside withTransaction, so nested calls reuse it. */
  inTransaction?: boolean;
  requestId?: string;
  /**
   * The acting user's account as route() loaded it with the credential this request (never the password
   * hash), so a verb that shows it (GET /auth/me) need not read it again. Absent outside the API.
   */
  user?: CallerUser;
}

/** The signed-in user acting, or 401 UNAUTHORIZED: how every owner-scoped verb starts. */
export function requireUser(ctx: ServiceContext): Extract<Actor, { kind: "user" }> {
  if (ctx.actor.kind !== "user") throw new UnauthorizedError();
  return ctx.actor;
}

export function systemContext(db: Database = getDatabase().db): ServiceContext {
  return { actor: { kind: "system" }, db };
}

/**
 * Runs `work` in a transaction, reusing the caller's when one is already open, so a service can be
 * composed into a larger unit of work without partial writes.
 */
export async function withTransaction<T>(ctx: ServiceContext, work: (txCtx: ServiceContext & { db: Transaction }) => Promise<T>): Promise<T> {
  if (ctx.inTransaction) return work(ctx as ServiceContext & { db: Transaction });
  return (ctx.db as Database).transaction((tx) => work({ ...ctx, db: tx, inTransaction: true }));
}

export type UserActor = Extract<Actor, { kind: "user" }>;

/** An admin acting (ADMIN or SUPER_ADMIN), else 403 (401 when nobody is signed in): route() and the admin pages check too. */
export function requireAdmin(ctx: ServiceContext): UserActor {
  const actor = requireUser(ctx);
  if (actor.role !== "ADMIN" && actor.role !== "SUPER_ADMIN") throw new ForbiddenError();
  return actor;
}

/** A SUPER_ADMIN acting (role changes, the audit log), else 403. */
export function requireSuperAdmin(ctx: ServiceContext): UserActor {
  const actor = requireUser(ctx);
  if (actor.role !== "SUPER_ADMIN") throw new ForbiddenError();
  return actor;
}
