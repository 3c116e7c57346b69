import { eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Thread } from "@/db/schema";
import { NotFoundError } from "@/lib/services/errors";
import { THREAD_TOKEN_PATTERN, threadTokenHash } from "./thread-token";

/**
 * The messages domain's reads on a bare database handle (or an open transaction): the thread behind a
 * token, a block between two users, a thread's tag. Routes, actions and pages use the verbs in index.ts
 * instead.
 */

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

/** The tag a thread is about: its owner, name and visibility (see tagNameFor). */
export async function tagOfThread(db: Executor, thread: Pick<Thread, "tagId">) {
  const [tag] = await db.select({ ownerId: schema.tags.ownerId, itemName: schema.tags.itemName, visibility: schema.tags.visibility }).from(schema.tags).where(eq(schema.tags.id, thread.tagId));
  return tag;
}
