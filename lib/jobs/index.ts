/**
 * Background jobs on pg-boss 10, over the app's own database handle (PostgreSQL through postgres.js, or PGlite).
 * Side effects are enqueued in the transaction that makes the change and run after it commits, with retries.
 *
 * - A job: its name, options and data schema in lib/jobs/catalog.ts; `defineCatalogJob(name, handler)` in
 *   lib/jobs/handlers/<name>.ts, listed in `registeredJobs` (lib/jobs/registry.ts).
 * - Enqueue: services import `enqueueJob` from "@/lib/jobs/enqueue" and nothing else from lib/jobs (this barrel
 *   loads the handlers, which import services: tests/unit/import-cycles.test.ts fails on such a loop).
 * - Run: `startJobs()` from lib/server-start.ts (workers); tests and scripts call `runPendingJobs()`.
 */
export { defineJob, type AnyJobDefinition, type JobContext, type JobDefinition, type JobOptions, type JobRetryOptions, type JobSpec } from "./define";
export { defineCatalogJob, jobCatalog, type JobData, type JobName, type JobPayload } from "./catalog";
export { registeredJobs } from "./registry";
export { JOBS_SCHEMA, JOBS_WAKE_CHANNEL, installJobs, prepareJobs } from "./boss";
export { enqueueJob, type EnqueueOptions } from "./enqueue";
export {
  JOB_DATABASE_BUDGET_MS,
  WORKER_BATCH_SIZE,
  WORKER_CONCURRENCY,
  WORKER_POLLING_INTERVAL_SECONDS,
  listJobs,
  registerJob,
  startJobs,
  stopJobs,
} from "./workers";
export { getJob, jobsStatus, runPendingJobs, type JobRecord, type JobRun, type JobRunReport, type JobsStatus, type RunPendingJobsOptions } from "./testing";
