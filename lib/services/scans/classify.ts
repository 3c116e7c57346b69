import { scanClass } from "@/db/schema";
import { isBotUserAgent } from "./user-agents";

export type ScanClass = (typeof scanClass.enumValues)[number];
export const scanClasses = scanClass.enumValues;

/** How long after a REAL scan the same client's scans of the same tag are REPEAT (and alert nobody). */
export const REPEAT_WINDOW_MS = 10 * 60_000;

export interface ScanFacts {
  /** The signed-in caller owns the tag. */
  isOwner: boolean;
  method: string;
  /** Sec-Purpose / Purpose: prefetch. */
  prefetch: boolean;
  userAgent: string | null;
  /** The same client (IP hash) had a REAL scan of this tag in the last REPEAT_WINDOW_MS. */
  recentRealScanFromSameClient: boolean;
}

/**
 * The scan-quality filter. Every scan is recorded; only REAL ones alert the owner. Precedence:
 * OWNER (the owner's own browser) > PREFETCH (HEAD, or a browser prefetching a link) > BOT (crawler,
 * link preview, link scanner) > REPEAT (same client within 10 minutes of its REAL scan) > REAL.
 */
export function classifyScan(facts: ScanFacts): ScanClass {
  if (facts.isOwner) return "OWNER";
  if (facts.method.toUpperCase() === "HEAD" || facts.prefetch) return "PREFETCH";
  if (isBotUserAgent(facts.userAgent)) return "BOT";
  if (facts.recentRealScanFromSameClient) return "REPEAT";
  return "REAL";
}

/** Classes whose location can say where the tag physically is: used for clone detection. */
export const LOCATING_CLASSES: readonly ScanClass[] = ["REAL", "REPEAT", "OWNER"];
