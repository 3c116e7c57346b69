import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import type { Thread, ThreadMessage } from "@/db/schema";
import { hashToken } from "@/lib/auth/tokens";

/**
 * Test setup for the finder's side without its endpoints: threads and messages written straight to the
 * database, as the messages domain would leave them.
 */

/** A finder thread on the owner's tag; `finderUserId` when the finder contacted while signed in. */
export async function createTestThread(options: { ownerId: string; tagId: string; finderUserId?: string | null; finderName?: string | null }): Promise<Thread> {
  const [thread] = await getDatabase()
    .db.insert(schema.threads)
    .values({
      ownerId: options.ownerId,
      tagId: options.tagId,
      tokenHash: hashToken(randomBytes(32).toString("base64url")),
      finderName: options.finderName ?? null,
      finderUserId: options.finderUserId ?? null,
    })
    .returning();
  return thread!;
}

export async function addTestMessage(threadId: string, content: string, sender: "FINDER" | "OWNER" = "FINDER"): Promise<ThreadMessage> {
  const [message] = await getDatabase().db.insert(schema.threadMessages).values({ threadId, sender, content }).returning();
  return message!;
}

export async function messageRow(messageId: string): Promise<ThreadMessage | undefined> {
  const [row] = await getDatabase().db.select().from(schema.threadMessages).where(eq(schema.threadMessages.id, messageId));
  return row;
}
