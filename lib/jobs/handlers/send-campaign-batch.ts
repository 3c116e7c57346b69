import { sendCampaignBatch } from "@/lib/services/campaigns";
import { defineCatalogJob } from "../catalog";

/**
 * Sends one batch of a campaign and queues the next (lib/services/campaigns). Idempotent: it takes only
 * PENDING deliveries and sends them in one batch call under a key made from them, so a retry or a
 * duplicate never sends twice.
 */
export const sendCampaignBatchJob = defineCatalogJob("campaigns.send-batch", async (data, job) => {
  await sendCampaignBatch(job.ctx, data.campaignId, data.batchSize, { deferrals: data.deferrals });
});
