import { openSealedText, sealText } from "@/lib/auth/tokens";
import type { EmailJobData, RenderedEmail } from "./types";

const EMAIL_BODY_PURPOSE = "email-job-body-aes-256-gcm";

export function sealEmailBody(body: Pick<RenderedEmail, "html" | "text">): string {
  return sealText(EMAIL_BODY_PURPOSE, JSON.stringify({ html: body.html, text: body.text }));
}

/** The rendered e-mail a job carries, opened for the transport. */
export function openEmailJob(data: EmailJobData): RenderedEmail & { to: string; template: string; replyTo?: string; headers?: Record<string, string> } {
  const body = JSON.parse(openSealedText(EMAIL_BODY_PURPOSE, data.sealedBody)) as Pick<RenderedEmail, "html" | "text">;
  return {
    to: data.to,
    template: data.template,
    subject: data.subject,
    html: body.html,
    text: body.text,
    ...(data.replyTo ? { replyTo: data.replyTo } : {}),
    ...(data.headers ? { headers: data.headers } : {}),
  };
}
