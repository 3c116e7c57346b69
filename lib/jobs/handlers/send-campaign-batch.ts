import { sendCampaignBatch } from "@/lib/services/campaigns";
import { jobCatalog } from "../catalog";
import { defineJob } from "../define";

export interface SendCampaignBatchJobData {
  campaignId: string;
  /** Deliveries per batch; CAMPAIGN_BATCH_SIZE when absent. */
  batchSize?: number;
}

/**
 * Sends one batch of a campaign and queues the next (lib/services/campaigns). Idempotent: it takes only
 * PENDING deliveries, in one transaction with their e-mails, so a retry or a duplicate never sends twice.
 */
export const sendCampaignBatchJob = defineJob({
  name: "campaigns.send-batch",
  ...jobCatalog["campaigns.send-batch"],
  handler: async (data: SendCampaignBatchJobData, job) => {
    await sendCampaignBatch(job.ctx, data.campaignId, data.batchSize);
  },
});
