import { deliverNotificationPush, type PushJobData } from "@/lib/services/notifications/push";
import { defineJob } from "../define";

/** Web-pushes one notification to its user's devices (one job per device when there are several); enqueued by notify(). */
export const notificationPushJob = defineJob({
  name: "notifications.push",
  retryLimit: 5,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 120,
  handler: async (data: PushJobData, job) => {
    await deliverNotificationPush(job.ctx, data);
  },
});
