import { processPaymentEvent } from "@/lib/services/payment-events";
import { jobCatalog } from "../catalog";
import { defineJob } from "../define";

export interface ProcessPaymentEventJobData {
  /** The event's id in payment_events (the provider's event id). */
  eventId: string;
  /** payment_events.attempts when this job was enqueued (0, or the count before an admin's replay). */
  firstAttempt: number;
}

const options = jobCatalog["payments.process-event"];

/**
 * Applies one stored webhook event (lib/services/payment-events/process.ts). A failure is thrown so pg-boss
 * retries with backoff; the last of this job's attempts marks the event FAILED instead of leaving it waiting.
 */
export const processPaymentEventJob = defineJob({
  name: "payments.process-event",
  ...options,
  handler: async (data: ProcessPaymentEventJobData, job) => {
    await processPaymentEvent(job.ctx, { eventId: data.eventId, attemptLimit: data.firstAttempt + options.retryLimit + 1 });
  },
});
