import { sendNotificationEmail } from "@/lib/services/notifications/email";
import { jobCatalog } from "../catalog";
import { defineJob } from "../define";

/** E-mails one notification; enqueued by notify() in the notification's own transaction. */
export const notificationEmailJob = defineJob({
  name: "notifications.email",
  ...jobCatalog["notifications.email"],
  handler: async (data: { notificationId: string }, job) => {
    await sendNotificationEmail(job.ctx.db, data.notificationId, `notification-email-${job.id}`);
  },
});
