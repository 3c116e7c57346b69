import { sendNotificationPush } from "@/lib/services/notifications/push";
import { defineJob } from "../define";

/** Web-pushes one notification to every device of its user; enqueued by notify(). */
export const notificationPushJob = defineJob({
  name: "notifications.push",
  retryLimit: 5,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 120,
  handler: async (data: { notificationId: string }, job) => {
    await sendNotificationPush(job.ctx.db, data.notificationId);
  },
});
