import type { ServiceContext } from "@/lib/services/context";
import { ownedTag } from "@/lib/services/tags";
import type { PublicScanView } from "@/lib/services/scans";
import { publicViewOf } from "./view";

/**
 * What a finder who scans the owner's tag sees right now (GET /scan/:encryptedId's view), for the owner's
 * preview: no scan is recorded and nobody is notified. Someone else's tag is NotFound.
 */
export async function finderViewPreview(ctx: ServiceContext, tagId: string): Promise<PublicScanView> {
  const tag = await ownedTag(ctx, tagId);
  return publicViewOf(ctx.db, tag);
}
