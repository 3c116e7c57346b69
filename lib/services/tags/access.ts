import { and, eq } from "drizzle-orm";
import { schema } from "@/db/client";
import type { Tag } from "@/db/schema";
import type { ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { requireUser } from "@/lib/services/context";

export const TAG_NOT_FOUND = "Tag not found.";

/**
 * The caller's tag, optionally locked for update. Another owner's tag, an unowned tag and a missing
 * one are the same 404: a tag's existence is not disclosed to non-owners.
 */
export async function ownedTag(ctx: ServiceContext, tagId: string, options: { lock?: boolean } = {}): Promise<Tag> {
  const { userId } = requireUser(ctx);
  const query = ctx.db
    .select()
    .from(schema.tags)
    .where(and(eq(schema.tags.id, tagId), eq(schema.tags.ownerId, userId)));
  const [tag] = options.lock ? await query.for("update") : await query;
  if (!tag) throw new NotFoundError(TAG_NOT_FOUND);
  return tag;
}
