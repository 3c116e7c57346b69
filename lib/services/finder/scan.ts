import type { ServiceContext } from "@/lib/services/context";
import { type PublicScanView, recordScan } from "@/lib/services/scans";
import type { Visitor } from "@/lib/services/visitor";
import { scanViewOf } from "./view";

/**
 * Records one visit to a tag's scan URL (recordScan: classified, clone-checked, the owner told) and answers
 * what the finder sees: the one verb behind GET /scan/:encryptedId and the finder page. The view is composed
 * from the tag row the scan returned and the reads this process keeps for the row's view_version, read
 * again (after the scan has committed) when the version moved (docs/decisions/0051-scan-hot-path.md).
 */
export async function scanTag(ctx: ServiceContext, encryptedId: string, visitor: Visitor): Promise<PublicScanView> {
  const tag = await recordScan(ctx, encryptedId, visitor);
  return scanViewOf(ctx.db, tag);
}
