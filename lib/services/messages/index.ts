/**
 * The messages domain as routes, server actions, pages and other domains use it: the finder's anonymous
 * conversations (by thread token) and the owner's inbox, their records and request schemas, and the scam rules.
 */
export { contactOwner, emailThreadLinkToFinder, getFinderThread, replyAsFinder, setFinderEmail, sharedLocationText, shareLocationInThread } from "./finder";
export { streamFinderThread } from "./stream";
export { CONFIRM_CONTACT_DETAILS, getThread, listThreads, markThreadRead, replyAsOwner, setThreadStatus } from "./inbox";
export { emailFinder, FINDER_EMAIL_INTERVAL_MS } from "./finder-email";
export { MESSAGE_LOCALES, type MessageLocale, SCAM_SIGNALS, type ScamSignal, scamSignals, scamWarningHeading, scamWarningText } from "./scam-rules";
export { newThreadToken, openThreadToken, THREAD_TOKEN_PATTERN, threadTokenHash, threadUrl } from "./thread-token";
export { threadByToken } from "./queries";
export { finderLabel } from "./labels";
export { notifyOwnerOfMessage } from "./owner-notice";
export * from "./schemas";
export { exportThreads } from "./export";
