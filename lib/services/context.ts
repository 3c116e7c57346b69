import { getDatabase, type Database, type Executor, type Transaction } from "@/db/client";
import { UnauthorizedError } from "./errors";

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
