import { deliverEmail } from "@/lib/email/deliver";
import type { EmailJobData } from "@/lib/email/queue";
import { defineJob } from "../define";

/** Delivers a rendered e-mail; the job id doubles as the provider's idempotency key so a retry never sends twice. */
export const emailSendJob = defineJob({
  name: "email.send",
  retryLimit: 8,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 120,
  handler: async (message: EmailJobData, job) => {
    await deliverEmail({ ...message, idempotencyKey: `email-send-${job.id}` });
  },
});
