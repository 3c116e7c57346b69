/**
 * Background jobs on pg-boss 10, over the app's own database handle (PostgreSQL through postgres.js, or PGlite).
 * Side effects are enqueued in the transaction that makes the change and run after it commits, with retries.
 *
 * - A job: `defineJob({ name, retryLimit, retryDelay, retryBackoff, handler })` in lib/jobs/handlers/<name>.ts,
 *   listed in `registeredJobs` (lib/jobs/registry.ts).
 * - Enqueue: `await enqueueJob(ctx, "email.send", message)` from a service, inside withTransaction.
 * - Run: `startJobs()` from instrumentation.ts (workers poll); tests and scripts call `runPendingJobs()`.
 */
export { defineJob, type AnyJobDefinition, type JobContext, type JobDefinition, type JobRetryOptions } from "./define";
export { registeredJobs, type JobData, type JobName } from "./registry";
export {
  JOBS_SCHEMA,
  enqueueJob,
  getJob,
  installJobs,
  jobsStatus,
  listJobs,
  prepareJobs,
  registerJob,
  runPendingJobs,
  startJobs,
  stopJobs,
  type EnqueueOptions,
  type JobRecord,
  type JobRun,
  type JobRunReport,
  type JobsStatus,
  type RunPendingJobsOptions,
} from "./runtime";
