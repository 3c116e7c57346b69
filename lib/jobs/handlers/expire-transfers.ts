import { expireOverdueTransfers } from "@/lib/services/tags/transfers";
import { jobCatalog } from "../catalog";
import { defineJob } from "../define";

export interface ExpireTransfersJobData {
  /** The transfer whose expiry scheduled this run; the run sweeps every overdue PENDING transfer anyway. */
  transferId?: string;
}

/**
 * Marks PENDING tag transfers past expiresAt EXPIRED. Enqueued per transfer with `startAfter: expiresAt`
 * (pg-boss cron is off); a sweep, so it is idempotent and also catches any transfer whose own run was lost.
 * Accepting an overdue transfer is refused whether or not this has run.
 */
export const expireTransfersJob = defineJob({
  name: "tags.expire-transfers",
  ...jobCatalog["tags.expire-transfers"],
  handler: async (_data: ExpireTransfersJobData, job) => {
    await expireOverdueTransfers(job.ctx);
  },
});
