import { expireOverdueTransfers } from "@/lib/services/tags";
import { defineCatalogJob } from "../catalog";

/**
 * Marks PENDING tag transfers past expiresAt EXPIRED. Enqueued per transfer with `startAfter: expiresAt`
 * (a delayed job, not a cron run); a sweep, so it is idempotent and also catches any transfer whose own run was lost.
 * Accepting an overdue transfer is refused whether or not this has run.
 */
export const expireTransfersJob = defineCatalogJob("tags.expire-transfers", async (_data, job) => {
  await expireOverdueTransfers(job.ctx);
});
