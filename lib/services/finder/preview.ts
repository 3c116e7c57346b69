import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import type { ServiceContext } from "@/lib/services/context";
import { ownedTag } from "@/lib/services/tags";
import type { PublicScanView } from "@/lib/services/scans";
import { NotFoundError } from "@/lib/services/errors";
import { publicViewOf } from "./view";

/**
 * What a finder who scans the owner's tag sees right now (GET /scan/:encryptedId's view), for the owner's
 * preview: no scan is recorded and nobody is notified. Someone else's tag is NotFound.
 */
export async function finderViewPreview(ctx: ServiceContext, tagId: string): Promise<PublicScanView> {
  const tag = await ownedTag(ctx, tagId);
  return publicViewOf(ctx.db, tag);
}

/**
 * What a scan of this address would show, without recording one: the finder page answering its own
 * contact form (lib/finder-page/route.ts), which is not a new visit. Unknown address: NotFound.
 */
export async function peekScanView(ctx: ServiceContext, encryptedId: string): Promise<PublicScanView> {
  const [tag] = await ctx.db.select().from(schema.tags).where(eq(schema.tags.encryptedId, encryptedId));
  if (!tag) throw new NotFoundError("No tag has this scan address.");
  return publicViewOf(ctx.db, tag);
}
