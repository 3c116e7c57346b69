/**
 * The blocks domain as routes, server actions and pages use it: a user blocking another so they can no
 * longer make contact. `isBlocked` is for the finder contact and reply paths.
 */
export { blockUser, listBlockedUsers, unblockUser } from "./blocks";
export { isBlocked } from "./queries";
export * from "./schemas";
