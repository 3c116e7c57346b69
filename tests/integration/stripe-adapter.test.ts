import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log";
import { createStripeProvider } from "@/lib/payments/stripe";
import type { CheckoutSessionInput, PaymentProvider } from "@/lib/payments/types";
import { PaymentProviderError } from "@/lib/services/errors";
import { FAKE_STRIPE_KEY, startFakeStripe, type FakeStripe } from "../support/stripe-server";

// The real SDK (stripe ^23) against a local server that answers as Stripe's API does: no mocked SDK.
let fake: FakeStripe;
let stripe: PaymentProvider;

beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = createStripeProvider({ secretKey: FAKE_STRIPE_KEY, proPriceId: "price_pro_monthly", host: "127.0.0.1", port: fake.port, protocol: "http", maxNetworkRetries: 0 });
});

afterAll(async () => {
  await fake?.close();
});

const order: CheckoutSessionInput = {
  mode: "payment",
  userId: "0b9f1f4e-8f4c-4a57-9d8e-7d1b2e3c4a5b",
  email: "buyer@example.com",
  amountMinor: 4999,
  currency: "USD",
  description: "QR tag 5-pack × 2",
  metadata: { orderId: "7e0b3c1a-3a4f-4c8e-9a51-2f6d8b1c0e9f" },
  successUrl: "http://localhost:3000/dashboard/orders/7e0b?paid=1",
  cancelUrl: "http://localhost:3000/shop/cart",
  idempotencyKey: "checkout-7e0b3c1a",
};

describe("Stripe adapter", () => {
  it("opens a payment Checkout Session with one line item, metadata, the customer's e-mail and our idempotency key", async () => {
    const session = await stripe.createCheckoutSession(order);
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`https://checkout.stripe.com/c/pay/${session.id}`);
    const call = fake.calls.at(-1)!;
    expect(call.method).toBe("POST");
    expect(call.path).toBe("/v1/checkout/sessions");
    expect(call.headers["authorization"]).toBe(`Bearer ${FAKE_STRIPE_KEY}`);
    expect(call.headers["idempotency-key"]).toBe("checkout-7e0b3c1a");
    expect(call.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(call.headers["stripe-version"]).toBeTruthy();
    expect(call.form).toMatchObject({
      mode: "payment",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "4999",
      "line_items[0][price_data][product_data][name]": "QR tag 5-pack × 2",
      "metadata[orderId]": order.metadata.orderId,
      "metadata[userId]": order.userId,
      "payment_intent_data[metadata][orderId]": order.metadata.orderId,
      client_reference_id: order.userId,
      customer_email: "buyer@example.com",
      success_url: order.successUrl,
      cancel_url: order.cancelUrl,
    });
    expect(call.form.customer).toBeUndefined();
  });

  it("opens a subscription session for the PRO price, reusing a known customer", async () => {
    await stripe.createCheckoutSession({ ...order, mode: "subscription", customerId: "cus_known", metadata: { tier: "PRO" }, idempotencyKey: "subscribe-1" });
    const call = fake.calls.at(-1)!;
    expect(call.form).toMatchObject({
      mode: "subscription",
      customer: "cus_known",
      "line_items[0][price]": "price_pro_monthly",
      "line_items[0][quantity]": "1",
      "metadata[tier]": "PRO",
      "metadata[userId]": order.userId,
      "subscription_data[metadata][userId]": order.userId,
      "subscription_data[metadata][tier]": "PRO",
    });
    expect(call.form.customer_email).toBeUndefined();
    expect(Object.keys(call.form).some((key) => key.includes("price_data"))).toBe(false);
    expect(call.headers["idempotency-key"]).toBe("subscribe-1");
  });

  it("refunds a payment intent, in whole or in part, with the idempotency key", async () => {
    expect(await stripe.refund({ paymentIntentId: "pi_123", idempotencyKey: "refund-a" })).toEqual({ id: expect.stringMatching(/^re_/), status: "succeeded" });
    let call = fake.calls.at(-1)!;
    expect(call.path).toBe("/v1/refunds");
    expect(call.form).toEqual({ payment_intent: "pi_123" });
    expect(call.headers["idempotency-key"]).toBe("refund-a");
    await stripe.refund({ paymentIntentId: "pi_123", amountMinor: 1000, idempotencyKey: "refund-b" });
    call = fake.calls.at(-1)!;
    expect(call.form).toEqual({ payment_intent: "pi_123", amount: "1000" });
  });

  it("cancels a subscription at the period end and answers that end", async () => {
    const answer = await stripe.cancelSubscriptionAtPeriodEnd("sub_abc123", "cancel-sub_abc123");
    expect(answer.currentPeriodEnd.toISOString()).toBe(new Date(1_800_000_000 * 1000).toISOString());
    const call = fake.calls.at(-1)!;
    expect(call.path).toBe("/v1/subscriptions/sub_abc123");
    expect(call.form).toEqual({ cancel_at_period_end: "true" });
    expect(call.headers["idempotency-key"]).toBe("cancel-sub_abc123");
  });

  it("maps Stripe's errors and an unreachable Stripe to PAYMENT_PROVIDER_ERROR, never a bare error", async () => {
    fake.failNext([400, { error: { type: "invalid_request_error", code: "resource_missing", message: "No such payment_intent: 'pi_gone'" } }]);
    const warn = vi.spyOn(log, "warn");
    const refused = await stripe.refund({ paymentIntentId: "pi_gone", idempotencyKey: "refund-c" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PaymentProviderError);
    expect(refused).toMatchObject({ code: "PAYMENT_PROVIDER_ERROR", details: { provider: "stripe", retryable: false, providerCode: "resource_missing" } });
    expect((refused as Error).message).not.toContain("pi_gone");
    // Stripe's own words go to the log (for us), not to the caller.
    expect(warn).toHaveBeenCalledWith("payment provider call failed", expect.objectContaining({ provider: "stripe", operation: "refunds.create", providerMessage: "No such payment_intent: 'pi_gone'", providerStatus: 400 }));
    warn.mockRestore();

    fake.failNext([500, { error: { type: "api_error", message: "Something went wrong" } }]);
    await expect(stripe.createCheckoutSession(order)).rejects.toMatchObject({ code: "PAYMENT_PROVIDER_ERROR", details: { retryable: true } });

    const wrongKey = createStripeProvider({ secretKey: "sk_test_wrong", host: "127.0.0.1", port: fake.port, protocol: "http", maxNetworkRetries: 0 });
    await expect(wrongKey.refund({ paymentIntentId: "pi_1", idempotencyKey: "k" })).rejects.toMatchObject({ code: "PAYMENT_PROVIDER_ERROR" });

    const closed = await startFakeStripe();
    const port = closed.port;
    await closed.close();
    const unreachable = createStripeProvider({ secretKey: FAKE_STRIPE_KEY, host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0, timeoutMs: 2000 });
    await expect(unreachable.cancelSubscriptionAtPeriodEnd("sub_1", "k")).rejects.toMatchObject({ code: "PAYMENT_PROVIDER_ERROR", details: { retryable: true } });

    const noPrice = createStripeProvider({ secretKey: FAKE_STRIPE_KEY, host: "127.0.0.1", port: fake.port, protocol: "http" });
    await expect(noPrice.createCheckoutSession({ ...order, mode: "subscription" })).rejects.toMatchObject({ code: "PAYMENT_PROVIDER_ERROR", details: { retryable: false } });
  });
});
