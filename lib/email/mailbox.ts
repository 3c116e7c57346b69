import { desc, eq, sql } from "drizzle-orm";
import { getDatabase, type Executor } from "@/db/client";
import { emailOutbox } from "@/db/schema";

export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers the message was sent with (List-Unsubscribe, Reply-To …); {} when none. */
  headers: Record<string, string>;
  /** ISO 8601. */
  createdAt: string;
}

export interface ListMailboxInput {
  /** Recipient address, matched case-insensitively. */
  to?: string;
  /** 1–200, default 50. */
  limit?: number;
}

export const MAILBOX_DEFAULT_LIMIT = 50;
export const MAILBOX_MAX_LIMIT = 200;

/** Messages in the outbox, newest first: what GET /api/dev/mailbox and /dev/mailbox show. */
export async function listMailbox(input: ListMailboxInput = {}, db: Executor = getDatabase().db): Promise<MailboxMessage[]> {
  const requested = input.limit !== undefined && Number.isFinite(input.limit) ? Math.trunc(input.limit) : MAILBOX_DEFAULT_LIMIT;
  const limit = Math.min(Math.max(requested, 1), MAILBOX_MAX_LIMIT);
  const to = input.to?.trim();
  const rows = await db
    .select({
      id: emailOutbox.id,
      to: emailOutbox.to,
      subject: emailOutbox.subject,
      text: emailOutbox.text,
      html: emailOutbox.html,
      headers: emailOutbox.headers,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(to ? eq(sql`lower(${emailOutbox.to})`, to.toLowerCase()) : undefined)
    .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, headers: row.headers ?? {}, createdAt: toIso(row.createdAt) }));
}

function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", apos: "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|#x27|apos);/g, (_, name: string) => entities[name] ?? _);
}

/**
 * The http(s) links in a message, in order of first appearance, without duplicates: the hrefs of
 * its HTML part, then any further URLs written in its text part.
 */
export function extractLinks(message: { html: string; text: string }): string[] {
  const found: string[] = [];
  for (const match of message.html.matchAll(/<a\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    found.push(decodeEntities(match[1] ?? match[2] ?? ""));
  }
  for (const match of message.text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)) {
    found.push(match[0].replace(/[.,;:!?]+$/, ""));
  }
  const links: string[] = [];
  for (const link of found) {
    if (!/^https?:\/\//i.test(link) || links.includes(link)) continue;
    links.push(link);
  }
  return links;
}
