import { getDatabase, type Database, type Executor, type Transaction } from "@/db/client";
import type { User } from "@/db/schema";
import { describeError, log } from "@/lib/log";
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
  /** Work queued by afterTransaction(), run by the outermost withTransaction once it has ended. */
  afterTransaction?: Array<(db: Database) => Promise<void>>;
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
  const after: Array<(db: Database) => Promise<void>> = [];
  try {
    return await (ctx.db as Database).transaction((tx) => work({ ...ctx, db: tx, inTransaction: true, afterTransaction: after }));
  } finally {
    for (const task of after) {
      // Never hides the transaction's own answer or error: a failed follow-up is logged.
      await task(ctx.db as Database).catch((error: unknown) => log.error("work after a transaction failed", { error: describeError(error), requestId: ctx.requestId }));
    }
  }
}

/**
 * Queues `task` to run on the database, in its own unit of work, once the open transaction has ended,
 * committed or rolled back: a record that must outlive a refusal (a refused VIN claim still files its
 * report for review, though the refusal rolls the request's writes back). Outside a transaction it runs now.
 */
export async function afterTransaction(ctx: ServiceContext, task: (db: Database) => Promise<void>): Promise<void> {
  if (ctx.inTransaction && ctx.afterTransaction) ctx.afterTransaction.push(task);
  else if (!ctx.inTransaction) await task(ctx.db as Database);
  else throw new Error("afterTransaction: the open transaction was not opened by withTransaction");
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
