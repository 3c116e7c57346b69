import type PgBoss from "pg-boss";
import { withDatabaseBudget } from "@/db/availability";
import { getDatabase, type DatabaseHandle } from "@/db/client";
import { observeJobRun, secondsSince } from "@/lib/metrics/registry";
import { takeTraceContext, traceJob } from "@/lib/telemetry/tracing";
import { ensureInstalled, ensureQueues, JOBS_SCHEMA, jobsState, runtimeFor, type Runtime } from "./boss";
import type { AnyJobDefinition } from "./define";
import { JOB_DATABASE_BUDGET_MS, jobContext, listJobs, resolveJob } from "./workers";

/** Running and inspecting jobs from tests and scripts, without workers. */

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

async function runFetched(runtime: Runtime, definition: AnyJobDefinition, job: PgBoss.JobWithMetadata<unknown>): Promise<JobRun> {
  const run = { id: job.id, name: definition.name, data: takeTraceContext(job.data).data };
  const startedAt = performance.now();
  try {
    await traceJob(job, (data) => withDatabaseBudget(JOB_DATABASE_BUDGET_MS, async () => definition.handler(data, jobContext(runtime, job))));
    observeJobRun(definition.name, "completed", secondsSince(startedAt));
  } catch (error) {
    observeJobRun(definition.name, "failed", secondsSince(startedAt));
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
      const [job] = await runtime.boss.fetch<unknown>(definition.name, { batchSize: 1, ignoreStartAfter: options.ignoreStartAfter ?? false, includeMetadata: true });
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
