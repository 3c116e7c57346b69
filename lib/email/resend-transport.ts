import { Resend } from "resend";
import { traceOutgoing } from "@/lib/telemetry/tracing";
import { batchProblem, EmailBatchInvalidError } from "./batch";
import { SendPaceTimeoutError } from "./send-pace";
import type { EmailMessage, EmailTransport } from "./types";

/** A failed Resend call. `retryable` is false for errors a retry cannot fix (bad address, bad key). */
export class EmailDeliveryError extends Error {
  constructor(
    message: string,
    readonly providerCode: string,
    readonly statusCode: number | null,
  ) {
    super(message);
    this.name = "EmailDeliveryError";
  }

  get retryable(): boolean {
    return this.statusCode === null || this.statusCode === 429 || this.statusCode >= 500;
  }
}

export interface ResendTransportOptions {
  apiKey: string;
  /** Defaults to the SDK's own choice: `RESEND_BASE_URL` or https://api.resend.com. */
  baseUrl?: string;
  /** Waits for the right to send (send-pace.ts); throws SendPaceTimeoutError when none comes in time. */
  waitForSendSlot?: () => Promise<void>;
}

/**
 * Sends through Resend, each e-mail after `waitForSendSlot` lets it. The SDK reports failures as values;
 * they are thrown here so the job retries.
 */
function payload(message: EmailMessage) {
  return {
    from: message.from,
    to: message.to,
    subject: message.subject,
    html: message.html,
    text: message.text,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    ...(message.headers ? { headers: message.headers } : {}),
  };
}

/** Resend's SDK answers a refusal as a value: the span says what it was. */
function resendFailure(answer: { error: { name: string; statusCode: number | null } | null }): string | undefined {
  return answer.error ? `${answer.error.name} (${answer.error.statusCode ?? "no status"})` : undefined;
}

export function createResendTransport({ apiKey, baseUrl, waitForSendSlot }: ResendTransportOptions): EmailTransport {
  const client = new Resend(apiKey, baseUrl ? { baseUrl } : undefined);
  // Resend's rate limit counts API calls, so a batch of 100 takes one slot like a single e-mail.
  async function slot() {
    try {
      await waitForSendSlot?.();
    } catch (error) {
      if (!(error instanceof SendPaceTimeoutError)) throw error;
      throw new EmailDeliveryError(`Not sent: the send rate (EMAIL_SEND_RATE) stayed used up for ${Math.round(error.waitedMs / 1000)} s`, "rate_limit_exceeded", 429);
    }
  }
  return {
    name: "resend",
    async sendBatch(messages: EmailMessage[], { idempotencyKey }) {
      const problem = batchProblem(messages);
      if (problem) throw new EmailBatchInvalidError(problem);
      await slot();
      const { data, error } = await traceOutgoing("resend", "batch.send", () => client.batch.send(messages.map(payload), { idempotencyKey }), { "email.batch.size": messages.length }, resendFailure);
      if (error) throw new EmailDeliveryError(`Resend refused the batch: ${error.message}`, error.name, error.statusCode);
      const ids = data?.data?.map((item) => item.id) ?? [];
      if (ids.length !== messages.length) throw new EmailDeliveryError(`Resend answered the batch of ${messages.length} with ${ids.length} ids`, "application_error", null);
      return { ids };
    },
    async send(message: EmailMessage) {
      await slot();
      const { data, error } = await traceOutgoing("resend", "emails.send", () =>
        client.emails.send(payload(message), message.idempotencyKey ? { idempotencyKey: message.idempotencyKey } : undefined),
        {},
        resendFailure,
      );
      if (error) {
        throw new EmailDeliveryError(`Resend refused the e-mail: ${error.message}`, error.name, error.statusCode);
      }
      if (!data?.id) throw new EmailDeliveryError("Resend answered without an e-mail id", "application_error", null);
      return { id: data.id };
    },
  };
}
