import { env } from "@/lib/env";
import { countEmailSent } from "@/lib/metrics/registry";
import { defaultTransport } from "./transport";
import type { EmailTransport, RenderedEmail } from "./types";

export interface DeliverableEmail extends RenderedEmail {
  to: string;
  /** Defaults to EMAIL_FROM. */
  from?: string;
  template?: string;
  idempotencyKey?: string;
  replyTo?: string;
  headers?: Record<string, string>;
}

/** Sends a rendered e-mail now. The `email.send` job handler calls this; a throw means "retry". */
export async function deliverEmail(message: DeliverableEmail, transport: EmailTransport = defaultTransport()): Promise<{ id: string; transport: string }> {
  let sent: { id: string };
  try {
    sent = await transport.send({ ...message, from: message.from ?? env.EMAIL_FROM });
  } catch (error) {
    countEmailSent(transport.name, "failed");
    throw error;
  }
  countEmailSent(transport.name, "sent");
  return { id: sent.id, transport: transport.name };
}
