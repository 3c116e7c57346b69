import Stripe from "stripe";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { traceOutgoing } from "@/lib/telemetry/tracing";
import { PaymentProviderError } from "@/lib/services/errors";
import type { CheckoutSession, CheckoutSessionInput, PaymentProvider, RefundInput, RefundResult } from "./types";

/**
 * The Stripe adapter (issue 14) over the official SDK. Outcomes still arrive only as webhook events; these
 * calls open sessions, refund and schedule cancellations. Every provider failure (unreachable, 5xx, a
 * request Stripe refuses) becomes a PaymentProviderError (502), never a 500, and every call carries our
 * idempotency key so a retried call cannot open a second session or refund twice.
 */

export interface StripeAdapterOptions {
  secretKey: string;
  /** The PRO plan's recurring price (STRIPE_PRO_PRICE_ID); subscriptions are refused without one. */
  proPriceId?: string;
  /** Another API host (tests point the SDK at a local server): host, port and protocol as the SDK takes them. */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
  /** Per call; Stripe's default is 80 s, too long for a request that a user waits on. */
  timeoutMs?: number;
  /** The SDK's own retries of network errors and 409/429/5xx (with the same idempotency key). */
  maxNetworkRetries?: number;
}

function toProviderError(error: unknown): PaymentProviderError {
  if (error instanceof Stripe.errors.StripeError) {
    const retryable =
      error instanceof Stripe.errors.StripeConnectionError ||
      error instanceof Stripe.errors.StripeAPIError ||
      error instanceof Stripe.errors.StripeRateLimitError ||
      (error.statusCode ?? 0) >= 500;
    return new PaymentProviderError(undefined, { provider: "stripe", retryable, providerCode: error.code ?? error.type ?? null, requestId: error.requestId ?? null });
  }
  return new PaymentProviderError(undefined, { provider: "stripe", retryable: true });
}

/** Runs one call to Stripe; a failure is logged with Stripe's own message (for us, not the caller) and becomes a 502. */
async function calling<T>(operation: string, work: () => Promise<T>): Promise<T> {
  try {
    return await traceOutgoing("stripe", operation, work);
  } catch (error) {
    const mapped = toProviderError(error);
    log.warn("payment provider call failed", {
      provider: "stripe",
      operation,
      providerMessage: error instanceof Error ? error.message : String(error),
      providerStatus: error instanceof Stripe.errors.StripeError ? (error.statusCode ?? null) : null,
      ...(mapped.details as Record<string, unknown>),
    });
    throw mapped;
  }
}

/** Seconds since the epoch in a Stripe object, or null. */
function periodEnd(subscription: Stripe.Subscription): Date | null {
  // Since 2025 the period lives on each item; older API versions kept it on the subscription itself.
  const legacy = (subscription as unknown as { current_period_end?: number }).current_period_end;
  const seconds = legacy ?? subscription.items?.data?.find((item) => item.current_period_end)?.current_period_end;
  return seconds ? new Date(seconds * 1000) : null;
}

export function createStripeProvider(options: StripeAdapterOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    host: options.host,
    port: options.port,
    protocol: options.protocol,
    timeout: options.timeoutMs ?? 20_000,
    maxNetworkRetries: options.maxNetworkRetries ?? 1,
    telemetry: false,
    appInfo: { name: "tag-service" },
  });

  return {
    name: "stripe",

    async createCheckoutSession(input: CheckoutSessionInput): Promise<CheckoutSession> {
      const who: Pick<Stripe.Checkout.SessionCreateParams, "customer" | "customer_email"> = input.customerId ? { customer: input.customerId } : { customer_email: input.email };
      const common = {
        ...who,
        client_reference_id: input.userId,
        metadata: { ...input.metadata, userId: input.userId },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      };
      let params: Stripe.Checkout.SessionCreateParams;
      if (input.mode === "payment") {
        params = {
          ...common,
          mode: "payment",
          line_items: [{ quantity: 1, price_data: { currency: input.currency.toLowerCase(), unit_amount: input.amountMinor, product_data: { name: input.description } } }],
          payment_intent_data: { metadata: { ...input.metadata, userId: input.userId } },
        };
      } else {
        if (!options.proPriceId) throw new PaymentProviderError("Subscriptions are not configured (STRIPE_PRO_PRICE_ID is not set).", { provider: "stripe", retryable: false });
        params = {
          ...common,
          mode: "subscription",
          line_items: [{ price: options.proPriceId, quantity: 1 }],
          // The subscription's own events carry these, so they can find the user before the checkout event links the customer.
          subscription_data: { metadata: { ...input.metadata, userId: input.userId } },
        };
      }
      const session = await calling("checkout.sessions.create", () => stripe.checkout.sessions.create(params, { idempotencyKey: input.idempotencyKey }));
      if (!session.url) throw new PaymentProviderError("The payment provider did not return a checkout page.", { provider: "stripe", retryable: false, requestId: session.lastResponse?.requestId });
      return { id: session.id, url: session.url };
    },

    async refund(input: RefundInput): Promise<RefundResult> {
      const params: Stripe.RefundCreateParams = { payment_intent: input.paymentIntentId };
      if (input.amountMinor !== undefined) params.amount = input.amountMinor;
      const refund = await calling("refunds.create", () => stripe.refunds.create(params, { idempotencyKey: input.idempotencyKey }));
      const status = refund.status === "succeeded" ? "succeeded" : refund.status === "failed" || refund.status === "canceled" ? "failed" : "pending";
      return { id: refund.id, status };
    },

    async cancelSubscriptionAtPeriodEnd(subscriptionId: string, idempotencyKey: string): Promise<{ currentPeriodEnd: Date }> {
      const subscription = await calling("subscriptions.update", () => stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }, { idempotencyKey }));
      const end = periodEnd(subscription);
      if (!end) throw new PaymentProviderError("The payment provider did not say when the subscription ends.", { provider: "stripe", retryable: false });
      return { currentPeriodEnd: end };
    },
  };
}

/** The Stripe adapter as configured (STRIPE_SECRET_KEY, STRIPE_PRO_PRICE_ID), or null when Stripe is not configured. */
export function configuredStripeProvider(): PaymentProvider | null {
  if (!env.STRIPE_SECRET_KEY) return null;
  // One SDK client (and its connection pool) per configuration, not one per call.
  if (configured?.key !== env.STRIPE_SECRET_KEY) {
    configured = { key: env.STRIPE_SECRET_KEY, provider: createStripeProvider({ secretKey: env.STRIPE_SECRET_KEY, proPriceId: env.STRIPE_PRO_PRICE_ID }) };
  }
  return configured.provider;
}

let configured: { key: string; provider: PaymentProvider } | undefined;
