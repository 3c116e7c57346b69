import { getDatabase, type Executor } from "@/db/client";
import { asc, sql } from "drizzle-orm";
import { emailOutbox } from "@/db/schema";
import { batchProblem, EmailBatchInvalidError } from "./batch";
import type { EmailMessage, EmailTransport } from "./types";

let lastStamp = 0;

/** The outbox keeps a batch's idempotency key with each of its e-mails, as the header Resend would not add. */
const OUTBOX_BATCH_HEADER = "X-Outbox-Idempotency-Key";

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

function outboxRow(message: EmailMessage) {
  return {
    to: message.to,
    from: message.from,
    subject: message.subject,
    text: message.text,
    html: message.html,
    template: message.template ?? null,
    // The development mailbox shows what the provider would receive, Reply-To included.
    headers: outboxHeaders(message),
    createdAt: nextTimestamp(),
  };
}

/**
 * Stores the message in `email_outbox` instead of sending it: the development mailbox reads it.
 * `db` defaults to the process-wide database at send time. A batch is one insert, refused whole by the
 * rules Resend's batch endpoint applies, inside the caller's transaction when it names one (so a batch
 * rolled back leaves no e-mail behind); a batch whose idempotency key was stored before is not stored
 * again (Resend keeps keys for 24 hours; the outbox, for as long as the key's first e-mail stays).
 */
export function createOutboxTransport(db?: Executor): EmailTransport {
  return {
    name: "outbox",
    async send(message: EmailMessage) {
      const executor = db ?? getDatabase().db;
      const [row] = await executor.insert(emailOutbox).values(outboxRow(message)).returning({ id: emailOutbox.id });
      if (!row) throw new Error("email outbox insert returned no row");
      return { id: row.id };
    },
    async sendBatch(messages: EmailMessage[], { idempotencyKey, db: inTransaction }) {
      const problem = batchProblem(messages);
      if (problem) throw new EmailBatchInvalidError(problem);
      const executor = inTransaction ?? db ?? getDatabase().db;
      const seen = await executor
        .select({ id: emailOutbox.id })
        .from(emailOutbox)
        .where(sql`${emailOutbox.headers}->>${OUTBOX_BATCH_HEADER} = ${idempotencyKey}`)
        .orderBy(asc(emailOutbox.createdAt));
      if (seen.length > 0) return { ids: seen.map((row) => row.id) };
      const rows = await executor
        .insert(emailOutbox)
        .values(messages.map((message) => { const row = outboxRow(message); return { ...row, headers: { ...row.headers, [OUTBOX_BATCH_HEADER]: idempotencyKey } }; }))
        .returning({ id: emailOutbox.id });
      return { ids: rows.map((row) => row.id) };
    },
  };
}
