import type { ReactElement } from "react";
import { enqueueJob } from "@/lib/jobs/enqueue";
import type { ServiceContext } from "@/lib/services/context";
import { renderEmail } from "./render";
import { safeHeaderValue, safeHeaders, singleLine } from "./headers";
import { sealEmailBody } from "./job-data";
import type { EmailJobData } from "./types";

export type { EmailJobData } from "./types";

export const EMAIL_SEND_JOB = "email.send";

export interface QueueEmailInput {
  to: string;
  subject: string;
  template: ReactElement;
  /** A stable name ("auth.verify-email"), stored with the message. */
  templateName: string;
  /** Where replies go (an address that passed e-mail validation). */
  replyTo?: string;
  /** Extra headers (List-Unsubscribe …). */
  headers?: Record<string, string>;
  /**
   * One of many (a campaign's): sent after every transactional e-mail waiting, so a sign-in link or a
   * finder's message never queues behind a newsletter that goes out at the provider's pace.
   */
  bulk?: boolean;
}

/** pg-boss takes higher priorities first; transactional e-mail has the default, 0. */
export const BULK_EMAIL_PRIORITY = -10;

/**
 * Renders now and enqueues the send in the caller's transaction, so the e-mail goes out only if
 * the change that caused it commits.
 */
export async function queueEmail(ctx: ServiceContext, input: QueueEmailInput) {
  const rendered = await renderEmail(input.template, singleLine(input.subject));
  const data: EmailJobData = { to: input.to, template: input.templateName, subject: rendered.subject, sealedBody: sealEmailBody(rendered) };
  if (input.replyTo) data.replyTo = safeHeaderValue(input.replyTo);
  if (input.headers) data.headers = safeHeaders(input.headers);
  return enqueueJob(ctx, EMAIL_SEND_JOB, data, input.bulk ? { priority: BULK_EMAIL_PRIORITY } : undefined);
}
