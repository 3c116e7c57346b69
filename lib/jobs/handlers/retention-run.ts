import { runRetention } from "@/lib/services/retention";
import { defineCatalogJob } from "../catalog";

/**
 * The daily retention run (docs/operations.md#retention): pg-boss's cron enqueues it once per schedule
 * across instances; the run is batches of sweeps, so a retry or an overlapping manual run is harmless.
 */
export const retentionRunJob = defineCatalogJob("retention.run", async (_data, job) => {
  await runRetention(job.ctx.db);
});
