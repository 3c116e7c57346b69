/**
 * The payment provider behind one interface (issue 14): the Stripe adapter (`stripe.ts`, the official SDK)
 * when STRIPE_SECRET_KEY is set, else the built-in test provider (`test-provider.ts`), whose hosted page
 * sends correctly signed events to our own webhook. The app learns every outcome from webhook events only,
 * never from these calls' answers, so both providers drive the same code.
 */

/** What a checkout sells: one order (mode "payment") or the PRO subscription (mode "subscription"). */
export interface CheckoutSessionInput {
  mode: "payment" | "subscription";
  /** Our user; also sent as metadata.userId, and the provider customer is reused when we know it. */
  userId: string;
  email: string;
  /** The provider's customer id when the user already has one (payment_customers). */
  customerId?: string | null;
  /** Amount in minor units and ISO currency (upper case): the order's total, or the plan's price per period. */
  amountMinor: number;
  currency: string;
  /** Shown on the provider's page: the order's lines, or the plan's name. */
  description: string;
  /** Always carries userId; orderId for an order, tier for a subscription. */
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  /** Passed to the provider so a retried call does not open a second session. */
  idempotencyKey: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
}

export interface RefundInput {
  paymentIntentId: string;
  /** Minor units; the whole payment when absent. */
  amountMinor?: number;
  idempotencyKey: string;
}

export interface RefundResult {
  id: string;
  status: "pending" | "succeeded" | "failed";
}

export interface PaymentProvider {
  readonly name: "stripe" | "test";
  createCheckoutSession(input: CheckoutSessionInput): Promise<CheckoutSession>;
  refund(input: RefundInput): Promise<RefundResult>;
  /** Cancels at the end of the current period; answers that period's end. */
  cancelSubscriptionAtPeriodEnd(subscriptionId: string, idempotencyKey: string): Promise<{ currentPeriodEnd: Date }>;
}
