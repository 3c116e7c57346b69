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
} from "./rewards";
export * from "./schemas";
