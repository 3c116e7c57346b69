import { asc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { ThreadMessage } from "@/db/schema";
import type { MessageLocation, ThreadMessageRecord } from "./schemas";
import { scamSignals } from "./scam-rules";

type MessageRow = Pick<ThreadMessage, "id" | "sender" | "content" | "createdAt" | "latitude" | "longitude" | "accuracy" | "channel" | "callOutcome" | "callSeconds">;

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
  // A relayed call's line is ours, as a location's is: never flagged.
  const outcome: "answered" | "missed" | null = row.callOutcome === "answered" ? "answered" : row.callOutcome === "missed" ? "missed" : null;
  const call = row.channel === "call" && outcome ? { outcome, durationSeconds: row.callSeconds } : null;
  return { id: row.id, sender: row.sender, content: row.content, createdAt: row.createdAt.toISOString(), warnings: location || call ? [] : scamSignals(row.content), location, channel: row.channel, call };
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
      channel: schema.threadMessages.channel,
      callOutcome: schema.threadMessages.callOutcome,
      callSeconds: schema.threadMessages.callSeconds,
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
