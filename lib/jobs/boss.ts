import PgBoss from "pg-boss";
import { getDatabase, type DatabaseHandle } from "@/db/client";
import { env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { bossDatabaseFor, type BossDatabase } from "./adapters";
import { catalogSpecs, isCatalogJob, jobCatalog } from "./catalog";
import type { AnyJobDefinition, JobSpec } from "./define";

/**
 * pg-boss bound to the process's database handle: its schema, its queues and the state every part of
 * lib/jobs shares. Nothing here knows a handler: enqueue.ts builds on this with the catalog alone, and
 * workers.ts (the only runtime importer of the handler registry) starts the workers.
 */

/** pg-boss keeps its tables in this schema; the app's migrations and TRUNCATEs never touch it. */
export const JOBS_SCHEMA = "pgboss";

/** pg-boss bound to one DatabaseHandle. There is at most one per process (see `runtimeFor`). */
export interface Runtime {
  handle: DatabaseHandle;
  db: BossDatabase;
  /** Constructed at once; used un-started for send/fetch/complete/fail, started only by startJobs. */
  boss: PgBoss;
  /** pg-boss's schema is installed and at the current version on this handle. */
  installed?: Promise<void>;
  /** Queues known to exist on this handle. */
  queues: Set<string>;
  /** The last queue creation of this process (they run one after another). */
  creatingQueues?: Promise<void>;
  /** Set by startJobs: maintenance and workers running. */
  started?: Promise<PgBoss>;
  workers: Set<string>;
  /** pg-boss's worker id per queue, for waking it (notifyWorker). */
  workerIds: Map<string, string>;
  /** Drops the LISTEN for wake-ups (set while started). */
  unlistenWakeups?: () => Promise<void>;
  /** Jobs whose cron schedule this runtime wrote (once each, after their queue). */
  scheduled?: Set<string>;
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

export function jobsState(): JobsState {
  const store = globalThis as { [STATE_KEY]?: JobsState };
  store[STATE_KEY] ??= { extraJobs: new Map(), bossStarts: 0 };
  return store[STATE_KEY];
}

/** The spec (name and options) of a catalog job or of one registered at run time. */
export function findJobSpec(name: string): JobSpec | undefined {
  if (isCatalogJob(name)) return { name, ...jobCatalog[name] };
  return jobsState().extraJobs.get(name);
}

/** Every job this process has a queue for: the catalog plus run-time registrations. */
export function listJobSpecs(): JobSpec[] {
  const specs = catalogSpecs();
  for (const [name, job] of jobsState().extraJobs) if (!isCatalogJob(name)) specs.push(job);
  return specs;
}

function bossOptions(db: BossDatabase): PgBoss.ConstructorOptions {
  return {
    db,
    schema: JOBS_SCHEMA,
    migrate: true,
    // Maintenance fails jobs stuck in `active` (a crashed process) so they are retried, and archives old ones.
    supervise: true,
    // The timekeeper: one instance at a time (a timestamp row claimed with UPDATE … WHERE) checks the cron
    // schedules every 30 s, and a due job is sent through its send-it queue with a 60 s singleton key, so
    // it is enqueued once whatever the number of instances (jobSchedules).
    schedule: true,
    // Finished jobs move to the archive after 12 hours (pg-boss's default), and leave it after RETENTION_JOBS_DAYS.
    deleteAfterDays: env.RETENTION_JOBS_DAYS,
  };
}

/** pg-boss's queue for due cron jobs (its timekeeper's own; created under the installation lock, see installSchema). */
export const CRON_SEND_QUEUE = "__pgboss__send-it";

/** The jobs pg-boss's cron starts: name → cron expression (UTC), or null for none. */
export function jobSchedules(): Record<string, string | null> {
  return { "retention.run": env.RETENTION_SCHEDULE === "off" ? null : env.RETENTION_SCHEDULE };
}

/**
 * Writes (or removes) the cron schedule of each scheduled job whose queue exists, once per runtime: an
 * upsert, so every start applies the current settings. A failure is logged, never thrown at an enqueue.
 */
async function applySchedules(runtime: Runtime): Promise<void> {
  runtime.scheduled ??= new Set();
  for (const [name, cron] of Object.entries(jobSchedules())) {
    if (runtime.scheduled.has(name) || !runtime.queues.has(name)) continue;
    runtime.scheduled.add(name);
    try {
      if (cron) await runtime.boss.schedule(name, cron, {}, { tz: "UTC" });
      else await runtime.boss.unschedule(name);
    } catch (error) {
      runtime.scheduled.delete(name);
      log.error("jobs: could not write a cron schedule", { job: name, cron, ...describeError(error) });
    }
  }
}

/** A runtime for `handle` outside the process state (runtimeFor keeps the process's own); tests make a second instance's. */
export function createRuntime(handle: DatabaseHandle): Runtime {
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
export function runtimeFor(handle: DatabaseHandle): Runtime {
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
  // The timekeeper creates its queue when it starts, outside our lock; made here (a no-op once it exists),
  // two instances starting together never create it side by side (create_queue can deadlock).
  await installer.createQueue(CRON_SEND_QUEUE);
}

function queueOptions(job: JobSpec): PgBoss.Queue {
  return {
    name: job.name,
    retryLimit: job.retryLimit,
    retryDelay: job.retryDelay,
    retryBackoff: job.retryBackoff,
    ...(job.expireInSeconds ? { expireInSeconds: job.expireInSeconds } : {}),
  };
}

async function createMissingQueues(boss: PgBoss, jobs: readonly JobSpec[], known: Set<string>): Promise<void> {
  const missing = jobs.filter((job) => !known.has(job.name));
  if (missing.length === 0) return;
  const existing = new Set((await boss.getQueues()).map((queue) => queue.name));
  for (const job of missing) {
    // create_queue skips a queue that exists; instances take turns here (acrossInstances), as two
    // create_queue calls at once can deadlock on the job table's partitions.
    if (!existing.has(job.name)) await boss.createQueue(job.name, queueOptions(job));
    known.add(job.name);
  }
}

/** The advisory lock instances take to install pg-boss's schema and create queues, one at a time. */
const INSTALL_LOCK_KEY = 7_262_016_002;
/** How long an instance waits for another's installation before its start-up step fails. */
const INSTALL_LOCK_WAIT_MS = 60_000;
const INSTALL_LOCK_POLL_MS = 100;

/**
 * Runs `work` while holding the installation lock on PostgreSQL. Instances starting together otherwise
 * run pg-boss's migrations and create_queue (which attaches a partition to the job table) side by side,
 * and PostgreSQL answers one of them with a deadlock, leaving that instance without workers. The lock is
 * a session lock on a connection reserved for it (the work runs on the pool's other connections); it is
 * polled with pg_try_advisory_lock so the wait has a deadline (hence a pool of at least 2: DATABASE_POOL_SIZE).
 * PGlite is one process: nothing to order.
 */
async function acrossInstances(handle: DatabaseHandle, work: () => Promise<void>): Promise<void> {
  if (handle.kind !== "postgres") return work();
  const deadline = Date.now() + INSTALL_LOCK_WAIT_MS;
  // Taking a connection waits for a free one too: under the same deadline (one that arrives later is given back).
  const reserving = handle.sql.reserve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const connection = await Promise.race([
    reserving,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        void reserving.then((late) => late.release(), () => undefined);
        reject(new Error(`jobs: no database connection for the installation lock within ${INSTALL_LOCK_WAIT_MS / 1000} s`));
      }, INSTALL_LOCK_WAIT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  try {
    for (;;) {
      const [row] = await connection<{ locked: boolean }[]>`select pg_try_advisory_lock(${INSTALL_LOCK_KEY}::bigint) as locked`;
      if (row?.locked) break;
      if (Date.now() >= deadline) throw new Error(`jobs: another instance held the installation lock for ${INSTALL_LOCK_WAIT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, INSTALL_LOCK_POLL_MS));
    }
    try {
      await work();
    } finally {
      await connection`select pg_advisory_unlock(${INSTALL_LOCK_KEY}::bigint)`;
    }
  } finally {
    connection.release();
  }
}

export async function ensureInstalled(runtime: Runtime): Promise<void> {
  runtime.installed ??= acrossInstances(runtime.handle, () => installSchema(runtime.db)).catch((error: unknown) => {
    runtime.installed = undefined;
    throw error;
  });
  await runtime.installed;
}

export async function ensureQueues(runtime: Runtime, jobs: readonly JobSpec[]): Promise<void> {
  if (jobs.every((job) => runtime.queues.has(job.name))) return;
  await ensureInstalled(runtime);
  // One creation at a time in this process too, so concurrent callers reserve one connection, not many.
  const creating = (runtime.creatingQueues ?? Promise.resolve()).then(() => acrossInstances(runtime.handle, () => createMissingQueues(runtime.boss, jobs, runtime.queues)));
  runtime.creatingQueues = creating.catch(() => undefined);
  await creating;
  await applySchedules(runtime);
}

/**
 * Installs pg-boss's schema and a queue per registered job on `handle`, keeping no state: for templates and
 * seed databases (tests/support/global-setup.ts), so each copy starts with everything in place.
 */
export async function installJobs(handle: DatabaseHandle): Promise<void> {
  const db = bossDatabaseFor(handle);
  await installSchema(db);
  await createMissingQueues(new PgBoss(bossOptions(db)), listJobSpecs(), new Set());
}

/**
 * Makes the current database ready for jobs (schema, queues) without starting workers. startJobs does this
 * too; call it yourself where jobs are enqueued inside PGlite transactions before anything else touched
 * jobs (see enqueueJob). Cheap when already done.
 */
export async function prepareJobs(handle: DatabaseHandle = getDatabase()): Promise<void> {
  await ensureQueues(runtimeFor(handle), listJobSpecs());
}

/** Wakes this instance's worker for a queue (a NOTIFY arrived, or a job was enqueued outside a transaction). */
export function wakeWorker(runtime: Runtime, name: string): void {
  const workerId = runtime.workerIds.get(name);
  if (workerId) runtime.boss.notifyWorker(workerId);
}

