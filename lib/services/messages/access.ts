import { and, eq } from "drizzle-orm";
import { schema } from "@/db/client";
import type { Tag, Thread } from "@/db/schema";
import { requireUser, type ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { THREAD_NOT_FOUND } from "./queries";

/** The caller's own thread (as its owner), optionally locked. Someone else's is as missing as none. */
export async function ownedThread(ctx: ServiceContext, threadId: string, options: { lock?: boolean } = {}): Promise<Thread> {
  const { userId } = requireUser(ctx);
  const query = ctx.db
    .select()
    .from(schema.threads)
    .where(and(eq(schema.threads.id, threadId), eq(schema.threads.ownerId, userId)));
  const [thread] = options.lock ? await query.for("update") : await query;
  if (!thread) throw new NotFoundError(THREAD_NOT_FOUND);
  return thread;
}

/**
 * The tag's name as the thread's owner may see it: null once the tag belongs to someone else (a
 * transfer), whose name for it is theirs. Finders also get null when the profile is PRIVATE.
 */
export function tagNameFor(thread: Pick<Thread, "ownerId">, tag: Pick<Tag, "ownerId" | "itemName" | "visibility"> | undefined, viewer: "owner" | "finder"): string | null {
  if (!tag || tag.ownerId !== thread.ownerId) return null;
  if (viewer === "finder" && tag.visibility === "PRIVATE") return null;
  return tag.itemName ?? null;
}
