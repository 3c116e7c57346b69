import { z } from "zod";
import { subscriptionStatus, subscriptionTier } from "@/db/schema";
import { TIER_TAG_LIMITS } from "@/lib/services/tags";
import { SUBSCRIBABLE_TIER } from "./plans";

export const subscribeInput = z.object({
  tier: z.literal(SUBSCRIBABLE_TIER, { error: "Only the PRO plan can be subscribed to." }).meta({ description: "The plan to subscribe to: only PRO is accepted (400 otherwise)", example: "PRO" }),
});
export type SubscribeInput = z.infer<typeof subscribeInput>;

export const subscribeResultSchema = z.object({
  checkoutUrl: z.url().meta({ description: "The provider's hosted checkout page: send the user here to subscribe" }),
  sessionId: z.string().meta({ description: "The provider's checkout session id" }),
});
export type SubscribeResult = z.infer<typeof subscribeResultSchema>;

export const cancelSubscriptionResultSchema = z.object({
  message: z.string(),
  endsAt: z.iso.datetime().meta({ description: "The end of the paid period: the plan stays until then and does not renew" }),
});
export type CancelSubscriptionResult = z.infer<typeof cancelSubscriptionResultSchema>;

export const invoiceSchema = z.object({
  id: z.uuid(),
  amount: z.number().meta({ description: "Amount in major units", example: 4.99 }),
  currency: z.string().meta({ example: "USD" }),
  status: z.string().meta({ description: "`paid` or `refunded`", example: "paid" }),
  date: z.iso.datetime().meta({ description: "When it was paid (an order) or its period began (a subscription)" }),
  description: z.string().meta({ example: "Pro plan, 2026-01-01 to 2026-01-31" }),
  orderId: z.uuid().nullable().meta({ description: "The shop order it is for; null for a subscription period" }),
  invoiceUrl: z.url().nullable().meta({ description: "The order's printable invoice (GET /orders/{id}/invoice); null for a subscription period" }),
});
export type InvoiceRecord = z.infer<typeof invoiceSchema>;

export const billingSchema = z
  .object({
    subscription: z.object({
      tier: z.enum(subscriptionTier.enumValues).meta({ description: "The plan in force now (FREE without a paid subscription)" }),
      status: z.enum(subscriptionStatus.enumValues).nullable().meta({ description: "The provider subscription's status; null when there never was one" }),
      currentPeriodEnd: z.iso.datetime().nullable().meta({ description: "The end of the paid period (renewal, or the end when cancelAtPeriodEnd)" }),
      cancelAtPeriodEnd: z.boolean(),
    }),
    tagLimit: z.number().int().meta({ description: `Tags the plan allows (not DEACTIVATED): ${Object.entries(TIER_TAG_LIMITS).map(([tier, limit]) => `${tier} ${limit}`).join(", ")}` }),
    tagsUsed: z.number().int().meta({ description: "Tags you hold that count towards the limit" }),
    paymentMethod: z
      .object({ brand: z.string(), last4: z.string() })
      .nullable()
      .meta({ description: "The card on file; null when the provider has not told us (card details stay on its hosted page)" }),
    invoices: z.array(invoiceSchema).meta({ description: "Newest first, at most 50" }),
  })
  .meta({
    example: {
      subscription: { tier: "PRO", status: "ACTIVE", currentPeriodEnd: "2026-02-01T12:00:00.000Z", cancelAtPeriodEnd: false },
      tagLimit: 50,
      tagsUsed: 7,
      paymentMethod: null,
      invoices: [
        { id: "2f0c1f7e-5d7a-4a4e-9c1b-7f3e2d1c0b9a", amount: 4.99, currency: "USD", status: "paid", date: "2026-01-02T12:00:00.000Z", description: "Pro plan, 2026-01-02 to 2026-02-01", orderId: null, invoiceUrl: null },
      ],
    },
  });
export type BillingRecord = z.infer<typeof billingSchema>;
