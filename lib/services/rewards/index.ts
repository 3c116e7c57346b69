/** The rewards domain: offers on tags, return confirmation (with the finder's handover code), payment, disputes, certificates. */
export {
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
export { type LostModeResult, saveLostMode } from "./lost-mode";
export { activeReward } from "./queries";
export * from "./schemas";
export { exportRewards } from "./export";
