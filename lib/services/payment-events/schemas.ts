import { z } from "zod";

export const paymentEventStatusSchema = z.enum(["RECEIVED", "PROCESSED", "FAILED", "IGNORED"], "One of RECEIVED, PROCESSED, FAILED, IGNORED.");
export type PaymentEventStatus = z.infer<typeof paymentEventStatusSchema>;

/** The webhook's answer: `duplicate` when this event id was stored before (it is not applied again). */
export const webhookReceiptSchema = z
  .object({
    received: z.literal(true),
    duplicate: z.boolean().meta({ description: "True when this event id was already stored: acknowledged, not applied again." }),
  })
  .meta({ id: "PaymentWebhookReceipt" });
export type WebhookReceipt = z.infer<typeof webhookReceiptSchema>;

/** The raw event as the provider sends it: the OpenAPI description of the webhook's body (lib/payments/event.ts checks it). */
export const providerEventDocSchema = z
  .object({
    id: z.string().meta({ example: "evt_1QjX3p2eZvKYlo2C" }),
    type: z.string().meta({ example: "customer.subscription.updated" }),
    created: z.int().optional().meta({ description: "Unix seconds at the provider" }),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .meta({ id: "PaymentProviderEvent" });

export const paymentSignatureHeaders = z.object({
  "payment-signature": z.string().meta({
    description: "`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<raw body>\")>`; several v1 values may appear; within 300 s of the server's clock.",
    example: "t=1767225600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
  }),
});

/** A path's event id: the provider's, not a UUID (an id that could not be one is 404). */
export const paymentEventIdParams = z.object({ id: z.string().min(1).max(255).regex(/^[A-Za-z0-9_.:-]+$/) });

export const paymentEventFilters = z.object({ status: paymentEventStatusSchema.optional() });

export const paymentEventRecordSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    status: paymentEventStatusSchema,
    attempts: z.int().min(0).meta({ description: "Processing attempts made so far" }),
    lastError: z.string().nullable(),
    providerCreatedAt: z.iso.datetime().nullable(),
    receivedAt: z.iso.datetime(),
    processedAt: z.iso.datetime().nullable(),
    payload: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "PaymentEvent" });
export type PaymentEventRecord = z.infer<typeof paymentEventRecordSchema>;
