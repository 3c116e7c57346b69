import { deliverNotificationPush } from "@/lib/services/notifications";
import { defineCatalogJob } from "../catalog";

/** Web-pushes one notification to its user's devices (one job per device when there are several); enqueued by notify(). */
export const notificationPushJob = defineCatalogJob("notifications.push", async (data, job) => {
  await deliverNotificationPush(job.ctx, data);
});
