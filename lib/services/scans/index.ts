/**
 * The scans domain (a tag's public side) as routes, server actions and pages use it: its ctx-taking
 * verbs, their records and request schemas. Code inside lib/services imports the files themselves.
 */
export { classifyScan, type ScanClass, scanClasses } from "./classify";
export { greatCircleKm, isImpossibleTravel } from "./distance";
export { finderCanReachOwner, notifyLocationShared, SHARE_ALERT_INTERVAL_MS, shareFinderLocation } from "./finder-location";
export { insertSharedLocationScan } from "./queries";
export { recordScan } from "./scan-tag";
export { DEMO_TAG_ENCRYPTED_ID, encryptedIdParam, encryptedIdParams, ownerSideEffectNote, type PublicDetails, publicDetailsSchema, type PublicScanView, publicScanViewSchema, type SharedLocation, sharedLocationSchema, shareLocationInput, type ShareLocationInput } from "./schemas";
export { describeUserAgent, isBotUserAgent } from "./user-agents";
