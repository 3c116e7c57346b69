import type { JobOptions, JobSpec } from "./define";

/**
 * Every application job by name, with how pg-boss runs it, and nothing else: enqueueing and queue
 * creation need only this, so services can enqueue without loading the handlers (which import services).
 * Each name has its handler in lib/jobs/handlers/ and its entry in lib/jobs/registry.ts.
 */
export const jobCatalog = {
  "email.send": { retryLimit: 8, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
  "notifications.email": { retryLimit: 8, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
  "notifications.push": { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
  "orders.refund": { retryLimit: 10, retryDelay: 60, retryBackoff: true, expireInSeconds: 120 },
  "orders.expire-abandoned": { retryLimit: 5, retryDelay: 60, retryBackoff: true, expireInSeconds: 300 },
  "tags.expire-transfers": { retryLimit: 5, retryDelay: 60, retryBackoff: true, expireInSeconds: 300 },
  // A webhook event we acknowledged: the provider will not send it again, so retry for hours (30 s doubling,
  // 10 retries: about 8.5 hours in all) before the event is marked FAILED for an admin to replay.
  // One batch of a newsletter campaign (lib/services/campaigns): a failed batch rolled back whole, so a retry
  // sends exactly what it would have; retried for about an hour (10 s doubling) before the startup resume.
  "campaigns.send-batch": { retryLimit: 8, retryDelay: 10, retryBackoff: true, expireInSeconds: 300 },
  "payments.process-event": { retryLimit: 10, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
} as const satisfies Record<string, JobOptions>;

export type CatalogJobName = keyof typeof jobCatalog;

export function isCatalogJob(name: string): name is CatalogJobName {
  return Object.hasOwn(jobCatalog, name);
}

/** The catalog as specs (name and options), in a stable order. */
export function catalogSpecs(): JobSpec[] {
  return (Object.keys(jobCatalog) as CatalogJobName[]).map((name) => ({ name, ...jobCatalog[name] }));
}
