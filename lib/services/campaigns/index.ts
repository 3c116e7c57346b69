/** Newsletter campaigns (admin): create with a fixed recipient list, send in batches, follow the progress. */
export {
  CAMPAIGN_BATCH_SIZE,
  countConfirmedSubscribers,
  createCampaign,
  getCampaign,
  listCampaigns,
  resumeCampaigns,
  sendCampaignBatch,
  type CampaignBatchResult,
} from "./campaigns";
export * from "./schemas";
