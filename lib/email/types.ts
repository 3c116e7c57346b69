import type { Executor } from "@/db/client";

/** What rendering a template produces. */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** A message ready to hand to a transport. */
export interface EmailMessage extends RenderedEmail {
  to: string;
  from: string;
  /** Template name, kept in the outbox for the development mailbox. */
  template?: string;
  /** Sent to Resend as `Idempotency-Key` so a retried job does not send twice. */
  idempotencyKey?: string;
  /** Where replies go (a contact form's sender), when not to `from`. */
  replyTo?: string;
  /** Extra headers (List-Unsubscribe …). Names and values never contain line breaks (checked by `safeHeaders`). */
  headers?: Record<string, string>;
}

export interface EmailBatchOptions {
  idempotencyKey: string;
  /**
   * The caller's open transaction, which the outbox writes in (a provider ignores it): the embedded
   * database has one connection, so a write beside an open transaction would wait for it forever.
   */
  db?: Executor;
}

export interface EmailTransport {
  readonly name: "resend" | "outbox" | (string & {});
  /** Sends the message or throws (a throw makes the `email.send` job retry). */
  send(message: EmailMessage): Promise<{ id: string }>;
  /**
   * Sends up to EMAIL_BATCH_MAX messages in one provider call (Resend's batch endpoint), all or none; the
   * idempotency key makes a retried call send nothing twice. Throws like `send`.
   */
  sendBatch(messages: EmailMessage[], options: EmailBatchOptions): Promise<{ ids: string[] }>;
}

/**
 * The `email.send` job's data. The body is sealed (AES-256-GCM under a key derived from AUTH_SECRET):
 * reset and verification e-mails carry a live token in their links, and job rows stay in pg-boss's
 * tables (and its archive) long after the send, so the tables never hold a body in clear. Sealing
 * rather than deleting rows after the send also covers a job that waits hours for a failing transport.
 */
export interface EmailJobData {
  to: string;
  template: string;
  subject: string;
  /** `{ html, text }` as JSON, sealed with `sealEmailBody`. */
  sealedBody: string;
  replyTo?: string;
  /** Extra headers; an unsubscribe link is no secret beyond its recipient, like the body it repeats. */
  headers?: Record<string, string>;
}
