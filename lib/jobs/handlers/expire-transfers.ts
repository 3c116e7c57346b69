import { expireOverdueTransfers } from "@/lib/services/tags/transfers";
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
  // A literal, not an import: this module and the transfers service import each other.
  name: "tags.expire-transfers",
  retryLimit: 5,
  retryDelay: 60,
  retryBackoff: true,
  expireInSeconds: 300,
  handler: async (_data: ExpireTransfersJobData, job) => {
    await expireOverdueTransfers(job.ctx);
  },
});
