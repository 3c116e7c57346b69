import { deliverEmail } from "@/lib/email/deliver";
import { openEmailJob } from "@/lib/email/job-data";
import { defineCatalogJob } from "../catalog";

/** Delivers a rendered e-mail; the job id doubles as the provider's idempotency key so a retry never sends twice. */
export const emailSendJob = defineCatalogJob("email.send", async (message, job) => {
  await deliverEmail({ ...openEmailJob(message), idempotencyKey: `email-send-${job.id}` });
});
