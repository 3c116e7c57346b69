/** The rewards domain: offers on tags, return confirmation (with the finder's handover code), payment, disputes, certificates. */
export {
  activeReward,
  certificateById,
  certificateForTag,
  confirmReturn,
  createReward,
  deleteReward,
  disputeReward,
  finderReward,
  listRewards,
  payReward,
  returnCandidates,
  type ReturnCandidate,
  saveTagReward,
  type TagRewardOutcome,
} from "./rewards";
export * from "./schemas";
export { exportRewards } from "./export";
