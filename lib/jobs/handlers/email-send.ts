import { deliverEmail } from "@/lib/email/deliver";
import { openEmailJob } from "@/lib/email/job-data";
import type { EmailJobData } from "@/lib/email/types";
import { jobCatalog } from "../catalog";
import { defineJob } from "../define";

/** Delivers a rendered e-mail; the job id doubles as the provider's idempotency key so a retry never sends twice. */
export const emailSendJob = defineJob({
  name: "email.send",
  ...jobCatalog["email.send"],
  handler: async (message: EmailJobData, job) => {
    await deliverEmail({ ...openEmailJob(message), idempotencyKey: `email-send-${job.id}` });
  },
});
