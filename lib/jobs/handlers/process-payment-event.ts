import { processPaymentEvent } from "@/lib/services/payment-events";
import { defineCatalogJob, jobCatalog } from "../catalog";

const { retryLimit } = jobCatalog["payments.process-event"];

/**
 * Applies one stored webhook event (lib/services/payment-events/process.ts). A failure is thrown so pg-boss
 * retries with backoff; the last of this job's attempts marks the event FAILED instead of leaving it waiting.
 */
export const processPaymentEventJob = defineCatalogJob("payments.process-event", async (data, job) => {
  await processPaymentEvent(job.ctx, { eventId: data.eventId, attemptLimit: data.firstAttempt + retryLimit + 1 });
});
