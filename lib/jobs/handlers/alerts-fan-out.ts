import { notifyAlertRecipients } from "@/lib/services/alerts";
import { defineCatalogJob } from "../catalog";

/**
 * Notifies a lost-pet alert's watchers (LOST_PET_NEARBY), 500 per transaction; enqueued by raiseLostAlert
 * in the alert's transaction. Each recipient is marked with its notification in its batch's transaction,
 * so a retry or a duplicate run notifies only those left.
 */
export const alertsFanOutJob = defineCatalogJob("alerts.fan-out", async (data, job) => {
  await notifyAlertRecipients(job.ctx, data.alertId);
});
