import { sendCampaignBatchJob } from "./handlers/send-campaign-batch";
import { emailSendJob } from "./handlers/email-send";
import { expireAbandonedOrdersJob } from "./handlers/expire-abandoned-orders";
import { expireTransfersJob } from "./handlers/expire-transfers";
import { notificationEmailJob } from "./handlers/notification-email";
import { notificationPushJob } from "./handlers/notification-push";
import { refundOrderJob } from "./handlers/refund-order";
import { processPaymentEventJob } from "./handlers/process-payment-event";
import { eraseFinderNumbersJob } from "./handlers/erase-finder-numbers";
import { textOwnerReplyJob } from "./handlers/text-owner-reply";
import { relaySendTextJob } from "./handlers/relay-send-text";
import { alertsFanOutJob } from "./handlers/alerts-fan-out";
import { retentionRunJob } from "./handlers/retention-run";

/**
 * Every job the application runs, with its handler: one definition per file in lib/jobs/handlers/, listed
 * here. `startJobs()` creates a queue and a worker for each. Only the workers import this file (the
 * handlers import services); names, options and data types live in lib/jobs/catalog.ts.
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
  eraseFinderNumbersJob,
  textOwnerReplyJob,
  relaySendTextJob,
  alertsFanOutJob,
  retentionRunJob,
] as const;
