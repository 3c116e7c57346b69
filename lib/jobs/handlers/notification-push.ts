import { deliverNotificationPush, type PushJobData } from "@/lib/services/notifications/push";
import { jobCatalog } from "../catalog";
import { defineJob } from "../define";

/** Web-pushes one notification to its user's devices (one job per device when there are several); enqueued by notify(). */
export const notificationPushJob = defineJob({
  name: "notifications.push",
  ...jobCatalog["notifications.push"],
  handler: async (data: PushJobData, job) => {
    await deliverNotificationPush(job.ctx, data);
  },
});
