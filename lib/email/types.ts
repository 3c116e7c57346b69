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
}

export interface EmailTransport {
  readonly name: "resend" | "outbox" | (string & {});
  /** Sends the message or throws (a throw makes the `email.send` job retry). */
  send(message: EmailMessage): Promise<{ id: string }>;
}
