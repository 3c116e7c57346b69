// The job handler should import `deliverEmail` from "@/lib/email/deliver" rather than from here:
// this index also re-exports queueEmail, which imports "@/lib/jobs" (an import cycle otherwise).
export type { EmailMessage, EmailTransport, RenderedEmail } from "./types";
export { renderEmail } from "./render";
export { deliverEmail, type DeliverableEmail } from "./deliver";
export { defaultTransport } from "./transport";
export { createOutboxTransport } from "./outbox-transport";
export { createResendTransport, EmailDeliveryError, type ResendTransportOptions } from "./resend-transport";
export { queueEmail, EMAIL_SEND_JOB, type EmailJobData, type QueueEmailInput } from "./queue";
export { listMailbox, extractLinks, MAILBOX_DEFAULT_LIMIT, MAILBOX_MAX_LIMIT, type ListMailboxInput, type MailboxMessage } from "./mailbox";
