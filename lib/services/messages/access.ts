import { and, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Tag, Thread } from "@/db/schema";
import { requireUser, type ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { THREAD_TOKEN_PATTERN, threadTokenHash } from "./thread-token";

export const THREAD_NOT_FOUND = "Conversation not found.";

/**
 * The thread a token opens, optionally locked for update. An unknown, truncated or malformed token is
 * the same 404 as a token of a deleted thread: nothing tells a guess from a near miss.
 */
export async function threadByToken(db: Executor, token: string, options: { lock?: boolean } = {}): Promise<Thread> {
  if (!THREAD_TOKEN_PATTERN.test(token)) throw new NotFoundError(THREAD_NOT_FOUND);
  const query = db.select().from(schema.threads).where(eq(schema.threads.tokenHash, threadTokenHash(token)));
  const [thread] = options.lock ? await query.for("update") : await query;
  if (!thread) throw new NotFoundError(THREAD_NOT_FOUND);
  return thread;
}

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

/** Whether `blockerId` has blocked `blockedId` (a user_blocks row). */
export async function hasBlocked(db: Executor, blockerId: string, blockedId: string): Promise<boolean> {
  const [row] = await db
    .select({ blockerId: schema.userBlocks.blockerId })
    .from(schema.userBlocks)
    .where(and(eq(schema.userBlocks.blockerId, blockerId), eq(schema.userBlocks.blockedId, blockedId)));
  return Boolean(row);
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

export async function tagOfThread(db: Executor, thread: Pick<Thread, "tagId">) {
  const [tag] = await db.select({ ownerId: schema.tags.ownerId, itemName: schema.tags.itemName, visibility: schema.tags.visibility }).from(schema.tags).where(eq(schema.tags.id, thread.tagId));
  return tag;
}
