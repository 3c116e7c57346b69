/** Resend's batch endpoint takes at most this many e-mails per call (POST /emails/batch). */
export const EMAIL_BATCH_MAX = 100;

/**
 * What Resend refuses in a batch before sending any of it (strict validation, its default): an empty
 * batch or one over EMAIL_BATCH_MAX, and an e-mail without from, to, subject or a body. The outbox and the
 * tests' local Resend server apply the same rules, so development refuses what production would.
 * Returns the first problem, or null.
 */
export function batchProblem(messages: ReadonlyArray<{ from?: unknown; to?: unknown; subject?: unknown; html?: unknown; text?: unknown; attachments?: unknown }>): string | null {
  if (messages.length === 0) return "The batch is empty.";
  if (messages.length > EMAIL_BATCH_MAX) return `A batch holds at most ${EMAIL_BATCH_MAX} e-mails; this one has ${messages.length}.`;
  for (const [index, message] of messages.entries()) {
    if (typeof message.from !== "string" || !message.from) return `The e-mail at index ${index} has no from.`;
    const to = Array.isArray(message.to) ? message.to : [message.to];
    if (to.length === 0 || to.length > 50 || to.some((address) => typeof address !== "string" || !address.includes("@"))) return `The e-mail at index ${index} has an invalid to.`;
    if (typeof message.subject !== "string" || !message.subject) return `The e-mail at index ${index} has no subject.`;
    if (typeof message.html !== "string" && typeof message.text !== "string") return `The e-mail at index ${index} has no body.`;
    if (message.attachments !== undefined) return `The e-mail at index ${index} has attachments, which a batch cannot carry.`;
  }
  return null;
}

/** A batch refused before anything was sent (never retryable: the same batch would be refused again). */
export class EmailBatchInvalidError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmailBatchInvalidError";
  }
}
