/**
 * The finder domain: what a finder sees of a tag (the scan page's view, recorded by scanTag, and the
 * owner's preview of it) and the owner's printable lost poster. It sits above the domains whose data it
 * shows (profiles, emergency, rewards, scans, tags): docs/architecture.md, Domain boundaries.
 */
export { type LostModeWithRelayResult, saveLostModeWithRelay } from "./lost-mode-relay";
export { getLostPoster, lastSeenInput, setLastSeen, type LostPoster } from "./poster";
export { finderViewPreview, peekScanView } from "./preview";
export { scanTag } from "./scan";
export { ownerWordsOf, STOLEN_ALERT } from "./view";
