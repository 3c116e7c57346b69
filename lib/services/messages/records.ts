import { asc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { ThreadMessage } from "@/db/schema";
import type { ThreadMessageRecord } from "./schemas";
import { scamSignals } from "./scam-rules";

/** A message as both sides see it: the scam signals are computed from the text, never stored. */
export function toMessageRecord(row: Pick<ThreadMessage, "id" | "sender" | "content" | "createdAt">): ThreadMessageRecord {
  return { id: row.id, sender: row.sender, content: row.content, createdAt: row.createdAt.toISOString(), warnings: scamSignals(row.content) };
}

/** A thread's messages, oldest first. */
export async function messagesOf(db: Executor, threadId: string): Promise<ThreadMessageRecord[]> {
  const rows = await db
    .select({ id: schema.threadMessages.id, sender: schema.threadMessages.sender, content: schema.threadMessages.content, createdAt: schema.threadMessages.createdAt })
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
