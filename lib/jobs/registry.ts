import type { JobDefinition } from "./define";
import { sendCampaignBatchJob } from "./handlers/send-campaign-batch";
import { emailSendJob } from "./handlers/email-send";
import { expireAbandonedOrdersJob } from "./handlers/expire-abandoned-orders";
import { expireTransfersJob } from "./handlers/expire-transfers";
import { notificationEmailJob } from "./handlers/notification-email";
import { notificationPushJob } from "./handlers/notification-push";
import { refundOrderJob } from "./handlers/refund-order";
import { processPaymentEventJob } from "./handlers/process-payment-event";

/**
 * Every job the application runs: one definition per file in lib/jobs/handlers/, listed here.
 * `startJobs()` creates a queue and a worker for each; `enqueueJob(ctx, name, data)` accepts exactly
 * these names, each with its own data type.
 */
export const registeredJobs = [
  emailSendJob,
  expireTransfersJob,
  notificationEmailJob,
  notificationPushJob,
  refundOrderJob,
  expireAbandonedOrdersJob,
  processPaymentEventJob,
  sendCampaignBatchJob,
] as const;

type RegisteredJob = (typeof registeredJobs)[number];

/** The names `enqueueJob` accepts. */
export type JobName = RegisteredJob["name"];

/** The data a registered job takes. */
export type JobData<Name extends JobName> = Extract<RegisteredJob, { name: Name }> extends JobDefinition<Name, infer Data> ? Data : never;
