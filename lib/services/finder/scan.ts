import type { ServiceContext } from "@/lib/services/context";
import { type PublicScanView, recordScan } from "@/lib/services/scans";
import type { Visitor } from "@/lib/services/visitor";
import { publicViewOf } from "./view";

/**
 * Records one visit to a tag's scan URL (recordScan: classified, clone-checked, the owner told) and answers
 * what the finder sees: the one verb behind GET /scan/:encryptedId and the finder page. The view is read
 * after the scan's transaction has committed.
 */
export async function scanTag(ctx: ServiceContext, encryptedId: string, visitor: Visitor): Promise<PublicScanView> {
  const tag = await recordScan(ctx, encryptedId, visitor);
  return publicViewOf(ctx.db, tag);
}
