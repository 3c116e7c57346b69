import { sendNotificationEmail } from "@/lib/services/notifications";
import { defineCatalogJob } from "../catalog";

/** E-mails one notification; enqueued by notify() in the notification's own transaction. */
export const notificationEmailJob = defineCatalogJob("notifications.email", async (data, job) => {
  await sendNotificationEmail(job.ctx.db, data.notificationId, `notification-email-${job.id}`);
});
