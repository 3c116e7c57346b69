/** Newsletter campaigns (admin): create with a fixed recipient list, send in batches, follow the progress. */
export {
  CAMPAIGN_BATCH_SIZE,
  CAMPAIGN_MAX_DEFERRALS,
  countConfirmedSubscribers,
  createCampaign,
  getCampaign,
  listCampaigns,
  resumeCampaigns,
  sendCampaignBatch,
  type CampaignBatchResult,
  type SendCampaignBatchOptions,
} from "./campaigns";
export * from "./schemas";
