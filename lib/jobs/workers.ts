import PgBoss from "pg-boss";
import { withDatabaseBudget } from "@/db/availability";
import { getDatabase, type DatabaseHandle } from "@/db/client";
import { describeError, log } from "@/lib/log";
import { observeJobRun, secondsSince } from "@/lib/metrics/registry";
import { systemContext, type ServiceContext } from "@/lib/services/context";
import { traceJob } from "@/lib/telemetry/tracing";
import { ensureQueues, JOBS_WAKE_CHANNEL, jobsState, runtimeFor, wakeWorker, type Runtime } from "./boss";
import type { AnyJobDefinition, JobDefinition } from "./define";
import { registeredJobs } from "./registry";

/**
 * The job workers: start and stop, and the handlers they run. The only runtime importer of the handler
 * registry (handlers import services, so nothing a service imports may lead here).
 */

function staticJobs(): readonly AnyJobDefinition[] {
  return registeredJobs as readonly AnyJobDefinition[];
}

/** Every job this process can run: the registry plus run-time registrations. */
export function listJobs(): AnyJobDefinition[] {
  const byName = new Map<string, AnyJobDefinition>();
  for (const job of staticJobs()) byName.set(job.name, job);
  for (const [name, job] of jobsState().extraJobs) if (!byName.has(name)) byName.set(name, job);
  return [...byName.values()];
}

function findJob(name: string): AnyJobDefinition | undefined {
  return staticJobs().find((job) => job.name === name) ?? jobsState().extraJobs.get(name);
}

/** The definition (with its handler) of a registered job; throws for an unknown name. */
export function resolveJob(job: string | AnyJobDefinition): AnyJobDefinition {
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

export function jobContext(runtime: Runtime, job: { id: string; name: string }): { id: string; name: string; ctx: ServiceContext } {
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
  const options: PgBoss.WorkOptions & { includeMetadata: true } = {
    batchSize: WORKER_BATCH_SIZE,
    pollingIntervalSeconds: definition.pollingIntervalSeconds ?? WORKER_POLLING_INTERVAL_SECONDS,
    // The retry count: the attempt on the job's span (lib/telemetry).
    includeMetadata: true,
  };
  const workerId = await runtime.boss.work<unknown>(name, options, async (jobs) => {
    // Each job of the batch is settled on its own, at once: a failure retries that job alone (pg-boss
    // would fail the whole batch), and a crash mid-batch cannot re-run the jobs already done. pg-boss's
    // completion of the batch afterwards touches only jobs still active, so it changes nothing.
    const runOne = async (job: PgBoss.JobWithMetadata<unknown>) => {
      // Looked up per run: a re-registered definition (tests) takes effect without a new worker.
      const current = resolveJob(name);
      const startedAt = performance.now();
      try {
        await traceJob(job, (data) => withDatabaseBudget(JOB_DATABASE_BUDGET_MS, async () => current.handler(data, jobContext(runtime, job))));
        observeJobRun(name, "completed", secondsSince(startedAt));
      } catch (error) {
        observeJobRun(name, "failed", secondsSince(startedAt));
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

