import { openSealedText, sealText } from "@/lib/auth/tokens";
import type { RenderedEmail } from "./types";

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
}

const EMAIL_BODY_PURPOSE = "email-job-body-aes-256-gcm";

export function sealEmailBody(body: Pick<RenderedEmail, "html" | "text">): string {
  return sealText(EMAIL_BODY_PURPOSE, JSON.stringify({ html: body.html, text: body.text }));
}

/** The rendered e-mail a job carries, opened for the transport. */
export function openEmailJob(data: EmailJobData): RenderedEmail & { to: string; template: string } {
  const body = JSON.parse(openSealedText(EMAIL_BODY_PURPOSE, data.sealedBody)) as Pick<RenderedEmail, "html" | "text">;
  return { to: data.to, template: data.template, subject: data.subject, html: body.html, text: body.text };
}
