import { getDatabase, type Executor } from "@/db/client";
import { emailOutbox } from "@/db/schema";
import type { EmailMessage, EmailTransport } from "./types";

let lastStamp = 0;

function outboxHeaders(message: EmailMessage): Record<string, string> | null {
  const headers = { ...(message.replyTo ? { "Reply-To": message.replyTo } : {}), ...message.headers };
  return Object.keys(headers).length ? headers : null;
}

/**
 * Timestamps strictly increasing within this process, so two e-mails sent in the same millisecond
 * (a welcome and a verification, say) still list in the order they were sent.
 */
function nextTimestamp(): Date {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp);
}

/**
 * Stores the message in `email_outbox` instead of sending it: the development mailbox reads it.
 * `db` defaults to the process-wide database at send time.
 */
export function createOutboxTransport(db?: Executor): EmailTransport {
  return {
    name: "outbox",
    async send(message: EmailMessage) {
      const executor = db ?? getDatabase().db;
      const [row] = await executor
        .insert(emailOutbox)
        .values({
          to: message.to,
          from: message.from,
          subject: message.subject,
          text: message.text,
          html: message.html,
          template: message.template ?? null,
          // The development mailbox shows what the provider would receive, Reply-To included.
          headers: outboxHeaders(message),
          createdAt: nextTimestamp(),
        })
        .returning({ id: emailOutbox.id });
      if (!row) throw new Error("email outbox insert returned no row");
      return { id: row.id };
    },
  };
}
