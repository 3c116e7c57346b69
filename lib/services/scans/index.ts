/**
 * The scans domain as routes, server actions, pages and other domains use it: recording a visit to a tag's
 * scan URL (recordScan: classified, clone-checked, the owner told), a finder's shared location, and the
 * public view's schemas. What a finder sees is composed above, in lib/services/finder.
 */
export { classifyScan, type ScanClass, scanClasses } from "./classify";
export { greatCircleKm, isImpossibleTravel } from "./distance";
export { finderCanReachOwner, notifyLocationShared, SHARE_ALERT_INTERVAL_MS, shareFinderLocation } from "./finder-location";
export { insertSharedLocationScan } from "./queries";
export { forgetKnownRepeats, recordScan } from "./scan-tag";
export { DEMO_TAG_ENCRYPTED_ID, encryptedIdParam, encryptedIdParams, ownerSideEffectNote, type PublicDetails, publicDetailsSchema, type PublicScanView, publicScanViewSchema, type SharedLocation, sharedLocationSchema, shareLocationInput, type ShareLocationInput } from "./schemas";
export { describeUserAgent, isBotUserAgent } from "./user-agents";
