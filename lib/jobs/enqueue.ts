import { is, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type PgBoss from "pg-boss";
import { getDatabase, type Transaction } from "@/db/client";
import type { ServiceContext } from "@/lib/services/context";
import { withTraceContext, withTraceContexts } from "@/lib/telemetry/tracing";
import { bossDatabaseForTransaction, type BossDatabase } from "./adapters";
import { ensureQueues, findJobSpec, JOBS_SCHEMA, JOBS_WAKE_CHANNEL, runtimeFor, wakeWorker } from "./boss";
import type { JobData, JobName } from "./catalog";
import type { JobDefinition, JobRetryOptions, JobSpec } from "./define";

/**
 * Enqueueing, the one part of lib/jobs that services import. It needs each job's name, options and data
 * type, all from the catalog: no handler is loaded, not even for a type, so services and handlers never
 * import each other in a loop.
 */

/** Options a caller may add to one job; retry options override the job's defaults. */
export interface EnqueueOptions extends Partial<JobRetryOptions> {
  /** Seconds from now, an ISO date string, or a Date. */
  startAfter?: number | string | Date;
  /** Higher runs first. */
  priority?: number;
  expireInSeconds?: number;
}

function sendOptions(job: JobSpec, options: EnqueueOptions): PgBoss.SendOptions {
  // pg-boss asserts on keys that are present but undefined, so only defined values are passed.
  const merged: PgBoss.SendOptions = { retryLimit: job.retryLimit, retryDelay: job.retryDelay, retryBackoff: job.retryBackoff };
  if (job.expireInSeconds) merged.expireInSeconds = job.expireInSeconds;
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

function openTransaction(ctx: ServiceContext): Transaction | undefined {
  if (is(ctx.db, PgTransaction)) return ctx.db as Transaction;
  if (ctx.inTransaction) throw new Error("ctx.inTransaction is set but ctx.db is not a drizzle transaction");
  return undefined;
}

/** Inside a PGlite transaction nothing else may run on the instance; look for the queue through the transaction. */
async function queueExistsWithin(db: BossDatabase, name: string): Promise<boolean> {
  const schema = await db.executeSql(`SELECT to_regclass('${JOBS_SCHEMA}.queue') IS NOT NULL AS installed`, []);
  if (!(schema.rows[0] as { installed?: boolean } | undefined)?.installed) return false;
  const queue = await db.executeSql(`SELECT 1 FROM ${JOBS_SCHEMA}.queue WHERE name = $1`, [name]);
  return queue.rows.length === 1;
}

/**
 * Enqueues a job and returns its id. When `ctx` holds a transaction (withTransaction), the job is written in
 * that transaction: it exists, and runs, only if the transaction commits. Otherwise it is written at once.
 *
 * On PGlite, the first job of a kind enqueued inside a transaction needs its queue to exist already
 * (startJobs or prepareJobs did it, or the database was copied from one that had it): the single PGlite
 * connection is held by the transaction, so the queue cannot be created beside it.
 */
export async function enqueueJob<Name extends JobName>(ctx: ServiceContext, name: Name, data: JobData<Name>, options?: EnqueueOptions): Promise<string>;
/** The same, for a job registered at run time (tests), named by its definition. */
export async function enqueueJob<Data>(ctx: ServiceContext, job: JobDefinition<string, Data>, data: Data, options?: EnqueueOptions): Promise<string>;
export async function enqueueJob(ctx: ServiceContext, job: string | JobSpec, data: unknown, options: EnqueueOptions = {}): Promise<string> {
  const name = typeof job === "string" ? job : job.name;
  const definition = findJobSpec(name);
  if (!definition) throw new Error(`Job "${name}" is not registered (lib/jobs/catalog.ts, or registerJob() in tests)`);
  const handle = getDatabase();
  const runtime = runtimeFor(handle);
  const tx = openTransaction(ctx);
  const send = sendOptions(definition, options);
  if (tx) {
    const db = bossDatabaseForTransaction(handle.kind, tx);
    if (!runtime.queues.has(definition.name)) {
      if (handle.kind === "postgres") {
        await ensureQueues(runtime, [definition]); // on other pooled connections, beside the open transaction
      } else if (await queueExistsWithin(db, definition.name)) {
        runtime.queues.add(definition.name);
      } else {
        throw new Error(`The "${definition.name}" queue does not exist on this PGlite database yet: call startJobs() or prepareJobs() before enqueueing inside a transaction`);
      }
    }
    send.db = db;
  } else {
    await ensureQueues(runtime, [definition]);
  }
  // With tracing on, the data carries the enqueuing trace; the worker takes it out before the handler runs.
  const id = await runtime.boss.send(definition.name, withTraceContext(definition.name, data) as object, send);
  if (!id) throw new Error(`pg-boss did not create a "${definition.name}" job`);
  // A job due now wakes the workers: in the transaction, so the NOTIFY goes out only at commit.
  if (options.startAfter === undefined) {
    if (tx) {
      await tx.execute(sql`select pg_notify(${JOBS_WAKE_CHANNEL}, ${definition.name})`);
    } else {
      wakeWorker(runtime, definition.name);
      await handle.db.execute(sql`select pg_notify(${JOBS_WAKE_CHANNEL}, ${definition.name})`);
    }
  }
  return id;
}


/** One job of a bulk enqueue: its data and, optionally, when it may start. */
export interface BulkJob<Data> {
  data: Data;
  startAfter?: Date;
}

/**
 * Enqueues many jobs of one catalog name in one statement (pg-boss's `insert`), in `ctx`'s transaction
 * when it holds one, as enqueueJob does for one: a fan-out's hundreds of deliveries are one INSERT, not
 * hundreds. Workers are woken once (at commit inside a transaction) when any job is due now.
 */
export async function enqueueJobs<Name extends JobName>(ctx: ServiceContext, name: Name, jobs: readonly BulkJob<JobData<Name>>[]): Promise<void> {
  if (jobs.length === 0) return;
  const definition = findJobSpec(name);
  if (!definition) throw new Error(`Job "${name}" is not registered (lib/jobs/catalog.ts)`);
  const handle = getDatabase();
  const runtime = runtimeFor(handle);
  const tx = openTransaction(ctx);
  let db: BossDatabase | undefined;
  if (tx) {
    db = bossDatabaseForTransaction(handle.kind, tx);
    if (!runtime.queues.has(definition.name)) {
      if (handle.kind === "postgres") await ensureQueues(runtime, [definition]);
      else if (await queueExistsWithin(db, definition.name)) runtime.queues.add(definition.name);
      else throw new Error(`The "${definition.name}" queue does not exist on this PGlite database yet: call startJobs() or prepareJobs() before enqueueing inside a transaction`);
    }
  } else {
    await ensureQueues(runtime, [definition]);
  }
  // With tracing on, every job carries the enqueuing trace (one producer span for the lot).
  const traced = withTraceContexts(definition.name, jobs.map((job) => job.data));
  const rows: PgBoss.JobInsert[] = jobs.map((job, index) => ({
    name: definition.name,
    data: traced[index] as object,
    retryLimit: definition.retryLimit,
    retryDelay: definition.retryDelay,
    retryBackoff: definition.retryBackoff,
    ...(definition.expireInSeconds ? { expireInSeconds: definition.expireInSeconds } : {}),
    ...(job.startAfter ? { startAfter: job.startAfter } : {}),
  }));
  await runtime.boss.insert(rows, db ? { db } : {});
  if (jobs.some((job) => job.startAfter === undefined)) {
    if (tx) {
      await tx.execute(sql`select pg_notify(${JOBS_WAKE_CHANNEL}, ${definition.name})`);
    } else {
      wakeWorker(runtime, definition.name);
      await handle.db.execute(sql`select pg_notify(${JOBS_WAKE_CHANNEL}, ${definition.name})`);
    }
  }
}
