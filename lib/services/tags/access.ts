import { and, eq, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import type { Tag } from "@/db/schema";
import type { ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { requireUser } from "@/lib/services/context";

export const TAG_NOT_FOUND = "Tag not found.";

const ownedTagQueries = new WeakMap<Executor, ReturnType<typeof prepareOwnedTag>>();

function prepareOwnedTag(db: Executor) {
  return db
    .select()
    .from(schema.tags)
    .where(and(eq(schema.tags.id, sql.placeholder("tagId")), eq(schema.tags.ownerId, sql.placeholder("userId"))))
    .prepare("owned_tag");
}

/**
 * The caller's tag, optionally locked for update. Another owner's tag, an unowned tag and a missing
 * one are the same 404: a tag's existence is not disclosed to non-owners.
 */
export async function ownedTag(ctx: ServiceContext, tagId: string, options: { lock?: boolean } = {}): Promise<Tag> {
  const { userId } = requireUser(ctx);
  const [tag] = options.lock
    ? await ctx.db
        .select()
        .from(schema.tags)
        .where(and(eq(schema.tags.id, tagId), eq(schema.tags.ownerId, userId)))
        .for("update")
    : await preparedFor(ownedTagQueries, ctx.db, prepareOwnedTag).execute({ tagId, userId });
  if (!tag) throw new NotFoundError(TAG_NOT_FOUND);
  return tag;
}
