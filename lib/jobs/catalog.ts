import { z } from "zod";
import { defineJob, type JobContext, type JobDefinition, type JobOptions, type JobSpec } from "./define";

/**
 * Every application job by name: how pg-boss runs it, and the schema of the data it carries. Enqueueing,
 * queue creation and the data's types need only this file, so services enqueue without loading the
 * handlers (which import services) and without importing them for types either. Each name has its handler
 * in lib/jobs/handlers/ (made with `defineCatalogJob`), listed in lib/jobs/registry.ts.
 *
 * A job's data is read through its schema before the handler runs: the handler gets the fields the schema
 * names, and a malformed job fails (and is retried) with the schema's message instead of deep in a service.
 */
export const jobCatalog = {
  "email.send": {
    retryLimit: 8,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    /** A rendered e-mail, its body sealed (lib/email/types.ts, EmailJobData). */
    data: z.object({
      to: z.string(),
      template: z.string(),
      subject: z.string(),
      sealedBody: z.string(),
      replyTo: z.string().optional(),
      headers: z.record(z.string(), z.string()).optional(),
    }),
  },
  "notifications.email": {
    retryLimit: 8,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    data: z.object({ notificationId: z.string() }),
  },
  "notifications.push": {
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    /** A notification, and the one device to push it to on a per-device run (all its user's devices without). */
    data: z.object({ notificationId: z.string(), subscriptionId: z.string().optional() }),
  },
  "orders.refund": {
    retryLimit: 10,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 120,
    data: z.object({ orderId: z.string() }),
  },
  "orders.expire-abandoned": {
    retryLimit: 5,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 300,
    /** The order whose deadline scheduled this run; the run sweeps every overdue unpaid order anyway. */
    data: z.object({ orderId: z.string().optional() }),
  },
  "tags.expire-transfers": {
    retryLimit: 5,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 300,
    /** The transfer whose expiry scheduled this run; the run sweeps every overdue PENDING transfer anyway. */
    data: z.object({ transferId: z.string().optional() }),
  },
  /** Erases finders' relay numbers whose 7-day reply window has passed (docs/relay.md); enqueued for each window's end, a sweep. */
  "relay.erase-finder-numbers": {
    retryLimit: 5,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 300,
    data: z.object({ threadId: z.string().optional() }),
  },
  /**
   * Sends again a relayed text whose send from the webhook failed (docs/relay.md): the number sealed, never
   * in clear in the job's data. A send that fails again throws, and the job retries with backoff.
   */
  "relay.send-text": {
    retryLimit: 4,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 60,
    data: z.object({ sealedTo: z.string(), body: z.string() }),
  },
  /** Texts an owner's web reply to a relay conversation's finder (docs/relay.md); the reply is claimed, so a retry never texts twice. */
  "relay.text-owner-reply": {
    retryLimit: 3,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 60,
    data: z.object({ messageId: z.string() }),
  },
  /**
   * Notifies a lost-pet alert's recipients (docs/alerts.md) in batches of at most 500 per transaction; a
   * recipient is marked with its notification in the batch's transaction, so a retry notifies only the rest.
   */
  "alerts.fan-out": {
    retryLimit: 8,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 600,
    data: z.object({ alertId: z.string() }),
  },
  // One batch of a newsletter campaign (lib/services/campaigns), one call to Resend's batch endpoint: a failed
  // batch rolled back whole, and the retry's idempotency key is the same, so nobody gets it twice; retried for
  // about an hour (10 s doubling) before the startup resume.
  "campaigns.send-batch": {
    retryLimit: 8,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 300,
    /**
     * batchSize: deliveries per batch (one provider call); CAMPAIGN_BATCH_SIZE when absent. deferrals: runs
     * in a row that gave way to waiting transactional e-mail.
     */
    data: z.object({ campaignId: z.string(), batchSize: z.number().optional(), deferrals: z.number().int().min(0).optional() }),
  },
  // A webhook event we acknowledged: the provider will not send it again, so retry for hours (30 s doubling,
  // 10 retries: about 8.5 hours in all) before the event is marked FAILED for an admin to replay.
  "payments.process-event": {
    retryLimit: 10,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    /**
     * eventId: the event's id in payment_events (the provider's event id). firstAttempt: payment_events.attempts
     * when this job was enqueued (0, or the count before an admin's replay).
     */
    data: z.object({ eventId: z.string(), firstAttempt: z.number() }),
  },
  // The daily data retention run (lib/services/retention, docs/operations.md#retention), started by pg-boss's
  // cron (RETENTION_SCHEDULE) on one instance. Its own budget (20 minutes) ends it before the expiry; a retry or
  // the next day's run goes on from where it stopped.
  "retention.run": {
    retryLimit: 2,
    retryDelay: 600,
    retryBackoff: false,
    expireInSeconds: 1800,
    data: z.object({}).nullish(),
  },
} as const satisfies Record<string, JobOptions & { data: z.ZodType }>;

/** The names `enqueueJob` accepts. */
export type JobName = keyof typeof jobCatalog;

/** The data a catalog job is enqueued with. */
export type JobData<Name extends JobName> = z.input<(typeof jobCatalog)[Name]["data"]>;

/** The data its handler gets, read through the schema. */
export type JobPayload<Name extends JobName> = z.output<(typeof jobCatalog)[Name]["data"]>;

export function isCatalogJob(name: string): name is JobName {
  return Object.hasOwn(jobCatalog, name);
}

/** The catalog as specs (name and options), in a stable order. */
export function catalogSpecs(): JobSpec[] {
  return (Object.keys(jobCatalog) as JobName[]).map((name) => ({ name, ...jobCatalog[name] }));
}

/**
 * A catalog job's definition: its name, options and data schema from the catalog, and its handler, which
 * gets the data as read through the schema: `defineCatalogJob("orders.refund", async (data, job) => …)`.
 */
export function defineCatalogJob<Name extends JobName>(
  name: Name,
  handler: (data: JobPayload<Name>, job: JobContext) => Promise<void>,
): JobDefinition<Name, JobData<Name>> {
  const entry = jobCatalog[name];
  return defineJob({ name, ...entry, handler: async (data: JobData<Name>, job) => handler(entry.data.parse(data) as JobPayload<Name>, job) });
}
