/**
 * The blocks domain as routes, server actions and pages use it: a user blocking another so they can no
 * longer make contact. `isBlocked` is for the finder contact and reply paths.
 */
export { blockUser, isBlocked, listBlockedUsers, unblockUser } from "./blocks";
export * from "./schemas";
