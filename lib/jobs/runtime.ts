import PgBoss from "pg-boss";
import { is, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { withDatabaseBudget } from "@/db/availability";
import { getDatabase, type DatabaseHandle, type Transaction } from "@/db/client";
import { systemContext, type ServiceContext } from "@/lib/services/context";
import { bossDatabaseFor, bossDatabaseForTransaction, type BossDatabase } from "./adapters";
import type { AnyJobDefinition, JobDefinition, JobRetryOptions } from "./define";
import { registeredJobs, type JobData, type JobName } from "./registry";
import { describeError, log } from "@/lib/log";

/** pg-boss keeps its tables in this schema; the app's migrations and TRUNCATEs never touch it. */
export const JOBS_SCHEMA = "pgboss";

/** pg-boss bound to one DatabaseHandle. There is at most one per process (see `runtimeFor`). */
interface Runtime {
  handle: DatabaseHandle;
  db: BossDatabase;
  /** Constructed at once; used un-started for send/fetch/complete/fail, started only by startJobs. */
  boss: PgBoss;
  /** pg-boss's schema is installed and at the current version on this handle. */
  installed?: Promise<void>;
  /** Queues known to exist on this handle. */
  queues: Set<string>;
  /** Set by startJobs: maintenance and workers running. */
  started?: Promise<PgBoss>;
  workers: Set<string>;
  /** pg-boss's worker id per queue, for waking it (notifyWorker). */
  workerIds: Map<string, string>;
  /** Drops the LISTEN for wake-ups (set while started). */
  unlistenWakeups?: () => Promise<void>;
}

/**
 * The NOTIFY channel that wakes workers: enqueueing sends the queue's name on it in the enqueueing
 * transaction, so PostgreSQL delivers it at commit (never for a rollback) to every instance listening,
 * and each instance's worker for that queue fetches at once instead of at its next poll.
 */
export const JOBS_WAKE_CHANNEL = "tagsvc_jobs_wake";

interface JobsState {
  runtime?: Runtime;
  /** Jobs registered at run time (tests, scripts), beside the static registry. */
  extraJobs: Map<string, AnyJobDefinition>;
  /** How many times a boss was started in this process (tests check startJobs is idempotent). */
  bossStarts: number;
}

// On globalThis, not in module scope: Next.js loads this module once per bundle (instrumentation, route
// handlers, pages) and again on dev reloads; all of them must share one boss.
const STATE_KEY = "__tagServiceJobs";

function jobsState(): JobsState {
  const store = globalThis as { [STATE_KEY]?: JobsState };
  store[STATE_KEY] ??= { extraJobs: new Map(), bossStarts: 0 };
  return store[STATE_KEY];
}

function staticJobs(): readonly AnyJobDefinition[] {
  return registeredJobs as readonly AnyJobDefinition[];
}

/** Every job this process knows: the registry plus run-time registrations. */
export function listJobs(): AnyJobDefinition[] {
  const byName = new Map<string, AnyJobDefinition>();
  for (const job of staticJobs()) byName.set(job.name, job);
  for (const [name, job] of jobsState().extraJobs) if (!byName.has(name)) byName.set(name, job);
  return [...byName.values()];
}

function findJob(name: string): AnyJobDefinition | undefined {
  return staticJobs().find((job) => job.name === name) ?? jobsState().extraJobs.get(name);
}

function resolveJob(job: string | AnyJobDefinition): AnyJobDefinition {
  const name = typeof job === "string" ? job : job.name;
  const definition = findJob(name);
  if (!definition) throw new Error(`Job "${name}" is not registered (lib/jobs/registry.ts, or registerJob() in tests)`);
  return definition;
}

/**
 * Adds a job at run time (tests and scripts; application jobs belong in lib/jobs/registry.ts).
 * Registering a name again replaces the earlier definition; a name from the static registry cannot be taken.
 * When workers are running, the new job gets its queue and worker at once.
 */
export function registerJob<Name extends string, Data>(definition: JobDefinition<Name, Data>): JobDefinition<Name, Data> {
  if (staticJobs().some((job) => job.name === definition.name)) {
    throw new Error(`Job "${definition.name}" is already in the static registry`);
  }
  const state = jobsState();
  state.extraJobs.set(definition.name, definition as AnyJobDefinition);
  const runtime = state.runtime;
  if (runtime?.started) {
    void runtime.started
      .then(async () => {
        await ensureQueues(runtime, [definition as AnyJobDefinition]);
        await addWorker(runtime, definition.name);
      })
      .catch((error) => log.error("jobs: could not start a worker for a registered job", { job: definition.name, ...describeError(error) }));
  }
  return definition;
}

function bossOptions(db: BossDatabase): PgBoss.ConstructorOptions {
  return {
    db,
    schema: JOBS_SCHEMA,
    migrate: true,
    // Maintenance fails jobs stuck in `active` (a crashed process) so they are retried, and archives old ones.
    supervise: true,
    // No cron jobs yet: the timekeeper would only poll its own queue. Turn on with the first boss.schedule().
    schedule: false,
  };
}

function createRuntime(handle: DatabaseHandle): Runtime {
  const db = bossDatabaseFor(handle);
  const boss = new PgBoss(bossOptions(db));
  // pg-boss emits maintenance and polling failures; an EventEmitter without an error listener would throw.
  boss.on("error", (error) => log.error("jobs: pg-boss error", describeError(error)));
  return { handle, db, boss, queues: new Set(), workers: new Set(), workerIds: new Map() };
}

async function retire(runtime: Runtime): Promise<void> {
  if (!runtime.started) return;
  try {
    const boss = await runtime.started;
    // Its handle was replaced (and is probably closed): stop now, without waiting for running jobs.
    await runtime.unlistenWakeups?.().catch(() => undefined);
    await boss.stop({ graceful: false, close: false });
  } catch (error) {
    log.debug("jobs: stopping a boss for a replaced database handle failed", describeError(error));
  }
}

/**
 * The runtime for `handle`. Integration tests swap the process handle per file (setDatabase); a boss for
 * any other handle is stopped and dropped here, so nothing keeps working against a closed database.
 */
function runtimeFor(handle: DatabaseHandle): Runtime {
  const state = jobsState();
  if (state.runtime?.handle === handle) return state.runtime;
  if (state.runtime) void retire(state.runtime);
  state.runtime = createRuntime(handle);
  return state.runtime;
}

/** Installs or migrates pg-boss's schema (pg-boss's own contractor, through a boss that starts nothing else). */
async function installSchema(db: BossDatabase): Promise<void> {
  const installer = new PgBoss({ db, schema: JOBS_SCHEMA, migrate: true, supervise: false, schedule: false });
  await installer.start();
}

function queueOptions(job: AnyJobDefinition): PgBoss.Queue {
  return {
    name: job.name,
    retryLimit: job.retryLimit,
    retryDelay: job.retryDelay,
    retryBackoff: job.retryBackoff,
    ...(job.expireInSeconds ? { expireInSeconds: job.expireInSeconds } : {}),
  };
}

async function createMissingQueues(boss: PgBoss, jobs: readonly AnyJobDefinition[], known: Set<string>): Promise<void> {
  const missing = jobs.filter((job) => !known.has(job.name));
  if (missing.length === 0) return;
  const existing = new Set((await boss.getQueues()).map((queue) => queue.name));
  for (const job of missing) {
    // create_queue is idempotent (ON CONFLICT DO NOTHING), so two processes racing here is harmless.
    if (!existing.has(job.name)) await boss.createQueue(job.name, queueOptions(job));
    known.add(job.name);
  }
}

async function ensureInstalled(runtime: Runtime): Promise<void> {
  runtime.installed ??= installSchema(runtime.db).catch((error: unknown) => {
    runtime.installed = undefined;
    throw error;
  });
  await runtime.installed;
}

async function ensureQueues(runtime: Runtime, jobs: readonly AnyJobDefinition[]): Promise<void> {
  if (jobs.every((job) => runtime.queues.has(job.name))) return;
  await ensureInstalled(runtime);
  await createMissingQueues(runtime.boss, jobs, runtime.queues);
}

/**
 * Installs pg-boss's schema and a queue per registered job on `handle`, keeping no state: for templates and
 * seed databases (tests/support/global-setup.ts), so each copy starts with everything in place.
 */
export async function installJobs(handle: DatabaseHandle): Promise<void> {
  const db = bossDatabaseFor(handle);
  await installSchema(db);
  await createMissingQueues(new PgBoss(bossOptions(db)), listJobs(), new Set());
}

/**
 * Makes the current database ready for jobs (schema, queues) without starting workers. startJobs does this
 * too; call it yourself where jobs are enqueued inside PGlite transactions before anything else touched
 * jobs (see enqueueJob). Cheap when already done.
 */
export async function prepareJobs(handle: DatabaseHandle = getDatabase()): Promise<void> {
  await ensureQueues(runtimeFor(handle), listJobs());
}

function jobContext(runtime: Runtime, job: { id: string; name: string }): { id: string; name: string; ctx: ServiceContext } {
  return { id: job.id, name: job.name, ctx: systemContext(runtime.handle.db) };
}

/**
 * How a worker fetches: pg-boss's worker waits a whole polling interval after every fetch, so the
 * default (one job every 2 s) turned a burst of 200 e-mails into minutes of delay. A batch per fetch
 * and the shortest interval pg-boss allows keep a committed job's start under a second and a burst of
 * 200 within seconds. A job's own `pollingIntervalSeconds` (slow housekeeping) still wins.
 */
export const WORKER_BATCH_SIZE = 20;
/** A job's database time in all (its own budget, whatever context the worker loop was started in). */
export const JOB_DATABASE_BUDGET_MS = 60_000;
export const WORKER_POLLING_INTERVAL_SECONDS = 0.5;
/** Jobs of one fetched batch run at the same time, per queue and instance. */
export const WORKER_CONCURRENCY = 4;

async function addWorker(runtime: Runtime, name: string): Promise<void> {
  if (runtime.workers.has(name)) return;
  runtime.workers.add(name);
  const definition = resolveJob(name);
  const options: PgBoss.WorkOptions = {
    batchSize: WORKER_BATCH_SIZE,
    pollingIntervalSeconds: definition.pollingIntervalSeconds ?? WORKER_POLLING_INTERVAL_SECONDS,
  };
  const workerId = await runtime.boss.work<unknown>(name, options, async (jobs) => {
    // Each job of the batch is settled on its own, at once: a failure retries that job alone (pg-boss
    // would fail the whole batch), and a crash mid-batch cannot re-run the jobs already done. pg-boss's
    // completion of the batch afterwards touches only jobs still active, so it changes nothing.
    const runOne = async (job: PgBoss.Job<unknown>) => {
      // Looked up per run: a re-registered definition (tests) takes effect without a new worker.
      const current = resolveJob(name);
      try {
        await withDatabaseBudget(JOB_DATABASE_BUDGET_MS, async () => current.handler(job.data, jobContext(runtime, job)));
      } catch (error) {
        log.warn("jobs: job failed; pg-boss retries it if attempts remain", { job: name, id: job.id, ...describeError(error) });
        await runtime.boss.fail(name, job.id, error instanceof Error ? { message: error.message } : { message: String(error) });
        return;
      }
      await runtime.boss.complete(name, job.id);
    };
    // A few jobs of the batch at a time: sends wait on the network, and the pool (10 connections) must
    // keep room for requests.
    let next = 0;
    const runner = async () => {
      while (next < jobs.length) await runOne(jobs[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(WORKER_CONCURRENCY, jobs.length) }, runner));
    // A full batch means more are probably waiting: fetch again at once instead of after the interval.
    if (jobs.length >= WORKER_BATCH_SIZE) wakeWorker(runtime, name);
  });
  runtime.workerIds.set(name, workerId);
}

/** Wakes this instance's worker for a queue (a NOTIFY arrived, or a job was enqueued outside a transaction). */
function wakeWorker(runtime: Runtime, name: string): void {
  const workerId = runtime.workerIds.get(name);
  if (workerId) runtime.boss.notifyWorker(workerId);
}

async function listenForWakeups(runtime: Runtime): Promise<void> {
  const onPayload = (name: string) => wakeWorker(runtime, name);
  if (runtime.handle.kind === "postgres") {
    // postgres.js keeps LISTEN on a connection of its own and listens again after a reconnect.
    const request = await runtime.handle.sql.listen(JOBS_WAKE_CHANNEL, onPayload);
    runtime.unlistenWakeups = () => request.unlisten();
  } else {
    const unlisten = await runtime.handle.pglite.listen(JOBS_WAKE_CHANNEL, onPayload);
    runtime.unlistenWakeups = () => unlisten();
  }
}

async function startRuntime(runtime: Runtime): Promise<PgBoss> {
  const began = performance.now();
  const jobs = listJobs();
  await ensureQueues(runtime, jobs);
  await runtime.boss.start();
  jobsState().bossStarts += 1;
  for (const job of jobs) await addWorker(runtime, job.name);
  await listenForWakeups(runtime);
  log.info("jobs: started", { database: runtime.handle.kind, workers: jobs.map((job) => job.name), ms: Math.round(performance.now() - began) });
  return runtime.boss;
}

/**
 * Starts pg-boss for this process: installs or migrates its schema, creates the queues, starts maintenance
 * and one worker per registered job. Idempotent: later (or concurrent) calls get the same boss.
 * Call it from instrumentation.ts (nodejs runtime only). `handle` should be the process handle.
 */
export function startJobs(handle: DatabaseHandle = getDatabase()): Promise<PgBoss> {
  const runtime = runtimeFor(handle);
  runtime.started ??= startRuntime(runtime).catch((error: unknown) => {
    runtime.started = undefined;
    runtime.workers.clear();
    throw error;
  });
  return runtime.started;
}

/**
 * Stops the workers and maintenance (waiting up to `timeoutMs` for running jobs, which are failed and so
 * retried if they outlast it) and forgets the boss. The database handle stays open: it is not ours.
 */
export async function stopJobs(options: { timeoutMs?: number } = {}): Promise<void> {
  const state = jobsState();
  const runtime = state.runtime;
  state.runtime = undefined;
  if (!runtime?.started) return;
  const boss = await runtime.started.catch(() => undefined);
  await runtime.unlistenWakeups?.().catch(() => undefined);
  await boss?.stop({ graceful: true, close: false, wait: true, timeout: options.timeoutMs ?? 30_000 });
}

/** Options a caller may add to one job; retry options override the job's defaults. */
export interface EnqueueOptions extends Partial<JobRetryOptions> {
  /** Seconds from now, an ISO date string, or a Date. */
  startAfter?: number | string | Date;
  /** Higher runs first. */
  priority?: number;
  expireInSeconds?: number;
}

function sendOptions(job: AnyJobDefinition, options: EnqueueOptions): PgBoss.SendOptions {
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
export async function enqueueJob(ctx: ServiceContext, job: string | AnyJobDefinition, data: unknown, options: EnqueueOptions = {}): Promise<string> {
  const definition = resolveJob(job);
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
  const id = await runtime.boss.send(definition.name, data as object, send);
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

export interface JobRun {
  id: string;
  name: string;
  data: unknown;
  status: "completed" | "failed";
  error?: string;
}

export interface JobRunReport {
  runs: JobRun[];
  completed: number;
  failed: number;
}

export interface RunPendingJobsOptions {
  /** Only this job; all registered jobs by default. */
  name?: string;
  /** Stop after this many runs (default 100), so a job that keeps re-enqueueing itself cannot loop forever. */
  limit?: number;
  /** Also run jobs whose start time is still ahead (startAfter, or a retry's delay). */
  ignoreStartAfter?: boolean;
}

async function runFetched(runtime: Runtime, definition: AnyJobDefinition, job: PgBoss.Job<unknown>): Promise<JobRun> {
  const run = { id: job.id, name: definition.name, data: job.data };
  try {
    await withDatabaseBudget(JOB_DATABASE_BUDGET_MS, async () => definition.handler(job.data, jobContext(runtime, job)));
  } catch (error) {
    await runtime.boss.fail(definition.name, job.id, error instanceof Error ? error : { message: String(error) });
    return { ...run, status: "failed", error: error instanceof Error ? error.message : String(error) };
  }
  await runtime.boss.complete(definition.name, job.id);
  return { ...run, status: "completed" };
}

/** Whether a job of these kinds is due (start_after <= now()) though the fetch just now found none: it was due this very tick. */
async function dueThisTick(runtime: Runtime, definitions: AnyJobDefinition[]): Promise<boolean> {
  const result = await runtime.db.executeSql(`SELECT 1 FROM ${JOBS_SCHEMA}.job WHERE name = ANY($1) AND state < 'active' AND start_after <= now() LIMIT 1`, [
    definitions.map((definition) => definition.name),
  ]);
  return result.rows.length > 0;
}

/**
 * Runs due jobs in this process, one at a time, until none is left (or `limit`): each is fetched (marked
 * active), its handler runs, and it is completed, or failed, which puts it up for retry as pg-boss would.
 * A retry that is due at once (retryDelay 0), or a job a handler enqueued, runs in the same call.
 * For tests and scripts: deterministic, no polling. Handler errors are reported, not thrown.
 */
export async function runPendingJobs(options: RunPendingJobsOptions = {}): Promise<JobRunReport> {
  const runtime = runtimeFor(getDatabase());
  const definitions = options.name ? [resolveJob(options.name)] : listJobs();
  await ensureQueues(runtime, definitions);
  const limit = options.limit ?? 100;
  const runs: JobRun[] = [];
  for (let progressed = true, waits = 0; progressed && runs.length < limit; ) {
    progressed = false;
    for (const definition of definitions) {
      if (runs.length >= limit) break;
      const [job] = await runtime.boss.fetch<unknown>(definition.name, { batchSize: 1, ignoreStartAfter: options.ignoreStartAfter ?? false });
      if (!job) continue;
      progressed = true;
      waits = 0;
      runs.push(await runFetched(runtime, definition, job));
    }
    // pg-boss fetches only jobs with start_after < now(); a job enqueued (or failed for an immediate
    // retry) in the same clock tick is due yet not fetched. PGlite's clock ticks in milliseconds.
    if (!progressed && waits < 5 && (await dueThisTick(runtime, definitions))) {
      waits += 1;
      progressed = true;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
  return {
    runs,
    completed: runs.filter((run) => run.status === "completed").length,
    failed: runs.filter((run) => run.status === "failed").length,
  };
}

export interface JobRecord {
  id: string;
  name: string;
  state: "created" | "retry" | "active" | "completed" | "cancelled" | "failed";
  data: unknown;
  retryCount: number;
  output: unknown;
}

/** A job as pg-boss holds it (also archived ones), or null if it never existed or is long gone. */
export async function getJob(job: string | AnyJobDefinition, id: string): Promise<JobRecord | null> {
  const name = typeof job === "string" ? job : job.name;
  const runtime = runtimeFor(getDatabase());
  await ensureInstalled(runtime);
  const found = await runtime.boss.getJobById<unknown>(name, id, { includeArchive: true });
  if (!found) return null;
  return { id: found.id, name: found.name, state: found.state, data: found.data, retryCount: Number(found.retryCount), output: found.output };
}

export interface JobsStatus {
  database?: DatabaseHandle["kind"];
  started: boolean;
  bossStarts: number;
  workers: string[];
}

export function jobsStatus(): JobsStatus {
  const state = jobsState();
  const runtime = state.runtime;
  return {
    database: runtime?.handle.kind,
    started: Boolean(runtime?.started),
    bossStarts: state.bossStarts,
    workers: runtime ? [...runtime.workers] : [],
  };
}
