import { asc, eq, inArray, or } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { messageLocation } from "./records";

/**
 * The user's conversations for the data export: those about their tags (as owner) and those they
 * started while signed in (as finder), with every message and the places shared in them. Never the
 * other side's identity: no finder e-mail address, account or IP hash, and nothing of the owner but
 * their words.
 */
export async function exportThreads(db: Executor, userId: string): Promise<unknown[]> {
  const rows = await db
    .select({
      id: schema.threads.id,
      tagId: schema.threads.tagId,
      ownerId: schema.threads.ownerId,
      finderName: schema.threads.finderName,
      status: schema.threads.status,
      createdAt: schema.threads.createdAt,
    })
    .from(schema.threads)
    .where(or(eq(schema.threads.ownerId, userId), eq(schema.threads.finderUserId, userId)))
    .orderBy(asc(schema.threads.createdAt));
  if (!rows.length) return [];
  const messages = await db
    .select({
      id: schema.threadMessages.id,
      threadId: schema.threadMessages.threadId,
      sender: schema.threadMessages.sender,
      content: schema.threadMessages.content,
      createdAt: schema.threadMessages.createdAt,
      latitude: schema.threadMessages.latitude,
      longitude: schema.threadMessages.longitude,
      accuracy: schema.threadMessages.accuracy,
    })
    .from(schema.threadMessages)
    .where(inArray(schema.threadMessages.threadId, rows.map((row) => row.id)))
    .orderBy(asc(schema.threadMessages.createdAt), asc(schema.threadMessages.id));
  return rows.map((row) => ({
    threadId: row.id,
    role: row.ownerId === userId ? "OWNER" : "FINDER",
    tagId: row.tagId,
    finderName: row.finderName,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    messages: messages
      .filter((message) => message.threadId === row.id)
      .map((message) => ({ id: message.id, sender: message.sender, content: message.content, createdAt: message.createdAt.toISOString(), location: messageLocation(message) })),
  }));
}
