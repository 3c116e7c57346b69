import { eraseExpiredFinderNumbers } from "@/lib/services/relay";
import { defineCatalogJob } from "../catalog";

/**
 * Erases the sealed numbers of finders whose 7-day reply window has passed (docs/relay.md). Enqueued for
 * each window's end (a delayed job, not a cron run); a sweep, so it is idempotent and catches any run that was lost.
 */
export const eraseFinderNumbersJob = defineCatalogJob("relay.erase-finder-numbers", async (_data, job) => {
  await eraseExpiredFinderNumbers(job.ctx.db, new Date());
});
