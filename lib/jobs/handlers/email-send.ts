import { deliverEmail } from "@/lib/email/deliver";
import { openEmailJob, type EmailJobData } from "@/lib/email/job-data";
import { defineJob } from "../define";

/** Delivers a rendered e-mail; the job id doubles as the provider's idempotency key so a retry never sends twice. */
export const emailSendJob = defineJob({
  name: "email.send",
  retryLimit: 8,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 120,
  handler: async (message: EmailJobData, job) => {
    await deliverEmail({ ...openEmailJob(message), idempotencyKey: `email-send-${job.id}` });
  },
});
