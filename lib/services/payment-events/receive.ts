import { schema } from "@/db/client";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { providerEventSchema } from "@/lib/payments/event";
import { verifyPaymentSignature, type SignatureFailure } from "@/lib/payments/signature";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";
import { paymentWebhookSecrets } from "@/lib/secrets";
import { wellFormedJson } from "@/lib/validation/control-characters";
import type { WebhookReceipt } from "./schemas";

const SIGNATURE_MESSAGES: Record<SignatureFailure, string> = {
  missing: "The Payment-Signature header is missing.",
  malformed: "The Payment-Signature header is malformed.",
  stale: "The Payment-Signature timestamp is too far from the server's clock.",
  mismatch: "The Payment-Signature does not match the body.",
};

export interface IncomingPaymentEvent {
  rawBody: string;
  signature: string | null;
  /** The secrets to check against; the configured ones by default. */
  secrets?: readonly string[];
  /** Unix seconds (tests). */
  now?: number;
}

/**
 * POST /webhooks/payment (docs/decisions/0025-payment-webhook.md): the signature over the raw body first (400 VALIDATION_ERROR,
 * before any query), then the event's shape, then, in one transaction, the event stored by its id and its
 * processing job enqueued only if the row is new. A repeat delivery (even ten at once: the primary key
 * decides) is acknowledged with `duplicate: true` and changes nothing. Processing runs after the commit.
 */
export async function receivePaymentEvent(ctx: ServiceContext, input: IncomingPaymentEvent): Promise<WebhookReceipt> {
  const check = verifyPaymentSignature(input.rawBody, input.signature, input.secrets ?? paymentWebhookSecrets(), { now: input.now });
  if (!check.ok) throw ValidationError.field("Payment-Signature", SIGNATURE_MESSAGES[check.reason]);

  let json: unknown;
  try {
    // A lone surrogate (`"\ud800"`) is kept as U+FFFD, not refused: the signature proves the provider sent
    // it, refusing would only make the provider retry the same bytes forever, and jsonb cannot store it.
    json = wellFormedJson(JSON.parse(input.rawBody));
  } catch {
    throw ValidationError.field("body", "The request body is not valid JSON.");
  }
  // PostgreSQL's jsonb cannot hold a NUL character; no provider event needs one.
  if (input.rawBody.includes("\\u0000")) throw ValidationError.field("body", "The event contains a NUL character.");
  const parsed = providerEventSchema.safeParse(json);
  if (!parsed.success) throw new ValidationError(parsed.error.issues.map((issue) => ({ field: ["body", ...issue.path.map(String)].join("."), message: issue.message })), "The body is not a payment event (id, type and data.object are required).");
  const event = parsed.data;

  return withTransaction(ctx, async (tx) => {
    const inserted = await tx.db
      .insert(schema.paymentEvents)
      .values({
        id: event.id,
        type: event.type,
        payload: event as Record<string, unknown>,
        providerCreatedAt: event.created === undefined ? null : new Date(event.created * 1000),
      })
      .onConflictDoNothing({ target: schema.paymentEvents.id })
      .returning({ id: schema.paymentEvents.id });
    if (inserted.length === 0) return { received: true, duplicate: true };
    await enqueueJob(tx, "payments.process-event", { eventId: event.id, firstAttempt: 0 });
    return { received: true, duplicate: false };
  });
}
