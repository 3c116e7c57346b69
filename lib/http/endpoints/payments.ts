import { paymentEventFilters, paymentEventIdParams, paymentEventRecordSchema, paymentSignatureHeaders, providerEventDocSchema, webhookReceiptSchema } from "@/lib/services/payment-events";
import { defineEndpoint } from "../endpoint";
import { cursorPaginationQuery } from "../pagination";

const webhookDescription =
  "The payment provider's events (Stripe's shape). Auth is the `Payment-Signature` header alone: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<raw body>\")>`, several v1 values allowed, within 300 s; signed with `PAYMENT_WEBHOOK_SECRET` (or, during a rotation, `PAYMENT_WEBHOOK_SECRET_PREVIOUS`). A missing or bad signature, or a body without string `id`, string `type` and `data.object`, is 400 `VALIDATION_ERROR`; over 1 MB is 413. The event is stored by its id and answered 200 at once; it is processed afterwards, retried with backoff if that fails. A repeat of a stored id is answered 200 with `duplicate: true` and not applied again. Counted per IP by the `paymentWebhook` limit (not per user).";

/** One contract per path of the same webhook. */
function webhookEndpoint<const Path extends string>(operationId: string, path: Path, summary: string) {
  return defineEndpoint({
    operationId,
    method: "POST",
    path,
    summary,
    description: webhookDescription,
    tags: ["Payments"],
    auth: "public",
    credentials: false,
    // Under /api/v1 or not, the same answers: envelope, CORS and rate-limit headers.
    versioned: true,
    rateLimit: ["paymentWebhook"],
    headers: paymentSignatureHeaders,
    rawBody: { mediaType: "application/json", schema: providerEventDocSchema },
    bodyLimitBytes: 1024 * 1024,
    response: webhookReceiptSchema,
    errors: ["VALIDATION_ERROR", "PAYLOAD_TOO_LARGE"],
  });
}

const admin = ["Admin"];

export const paymentEndpoints = {
  webhook: webhookEndpoint("receivePaymentEvent", "/api/v1/webhooks/payment", "Receive a payment provider event"),
  /** The specification's other path for the same webhook. */
  webhookAlias: webhookEndpoint("receivePaymentEventAlias", "/webhooks/payment", "Receive a payment provider event (the same as /api/v1/webhooks/payment)"),
  adminList: defineEndpoint({
    operationId: "listPaymentEvents",
    method: "GET",
    path: "/api/v1/admin/payment-events",
    summary: "The payment webhook's events (admin)",
    description:
      "Every stored provider event, newest first; filter by `status` (RECEIVED: waiting or retrying, PROCESSED, FAILED: retries exhausted, IGNORED: a type nothing handles). Each carries its attempts, last error and payload.",
    tags: admin,
    auth: "admin",
    query: cursorPaginationQuery.extend(paymentEventFilters.shape),
    response: paymentEventRecordSchema,
    responseKind: "paginated",
  }),
  adminReplay: defineEndpoint({
    operationId: "replayPaymentEvent",
    method: "POST",
    path: "/api/v1/admin/payment-events/{id}/replay",
    summary: "Process a failed payment event again (admin)",
    description:
      "A FAILED (or IGNORED) event goes back to RECEIVED with a new processing job and a fresh set of retries; a RECEIVED one gets another job (harmless if its own still runs: an event is applied once). A PROCESSED event is 409: it is never applied twice.",
    tags: admin,
    auth: "admin",
    params: paymentEventIdParams,
    response: paymentEventRecordSchema,
    successStatus: 202,
    errors: ["CONFLICT"],
  }),
};
