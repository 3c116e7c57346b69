import { asc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { ThreadMessage } from "@/db/schema";
import type { MessageLocation, ThreadMessageRecord } from "./schemas";
import { scamSignals } from "./scam-rules";

type MessageRow = Pick<ThreadMessage, "id" | "sender" | "content" | "createdAt" | "latitude" | "longitude" | "accuracy">;

/** A message's shared place, or null for a written message. */
export function messageLocation(row: Pick<ThreadMessage, "latitude" | "longitude" | "accuracy">): MessageLocation | null {
  return row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude, accuracy: row.accuracy } : null;
}

/**
 * A message as both sides see it: the scam signals are computed from the text, never stored. A shared
 * location's text is ours, so it is never flagged.
 */
export function toMessageRecord(row: MessageRow): ThreadMessageRecord {
  const location = messageLocation(row);
  return { id: row.id, sender: row.sender, content: row.content, createdAt: row.createdAt.toISOString(), warnings: location ? [] : scamSignals(row.content), location };
}

/** A thread's messages, oldest first. */
export async function messagesOf(db: Executor, threadId: string): Promise<ThreadMessageRecord[]> {
  const rows = await db
    .select({
      id: schema.threadMessages.id,
      sender: schema.threadMessages.sender,
      content: schema.threadMessages.content,
      createdAt: schema.threadMessages.createdAt,
      latitude: schema.threadMessages.latitude,
      longitude: schema.threadMessages.longitude,
      accuracy: schema.threadMessages.accuracy,
    })
    .from(schema.threadMessages)
    .where(eq(schema.threadMessages.threadId, threadId))
    .orderBy(asc(schema.threadMessages.createdAt), asc(schema.threadMessages.id));
  return rows.map(toMessageRecord);
}

/** One line of at most `max` characters, for notification bodies. */
export function preview(text: string, max = 140): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}
