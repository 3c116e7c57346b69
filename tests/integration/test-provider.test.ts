import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDatabase } from "@/db/client";
import { prepareJobs, stopJobs } from "@/lib/jobs";
import { verifyPaymentSignature } from "@/lib/payments/signature";
import { createTestProvider, DECLINE_MESSAGE, webhookDelivery, webhookUrl, type PaymentEvent } from "@/lib/payments/test-provider";
import { paymentProvider } from "@/lib/payments/provider";
import { paymentEventHandler } from "@/lib/services/payment-events";
import { systemContext } from "@/lib/services/context";
import { paymentWebhookSecret } from "@/lib/secrets";
import { registerAccount } from "../support/auth";
import { adminAccount, checkout, createTestProduct, ok, orderRow, placeTestOrder } from "../support/shop";

const checkoutCompleted = paymentEventHandler("checkout.session.completed");
const paymentSucceeded = paymentEventHandler("payment_intent.succeeded");
const paymentFailed = paymentEventHandler("payment_intent.payment_failed");

/**
 * The test provider's events are captured by a local HTTP server standing in for our webhook: each
 * delivery's Payment-Signature is checked with the app's own verifyPaymentSignature.
 */
interface Delivery {
  path: string;
  event: PaymentEvent;
  signatureOk: boolean;
  contentType: string | undefined;
}

let server: Server;
let url: string;
let deliveries: Delivery[] = [];
let answerStatus = 200;

beforeAll(async () => {
  await prepareJobs();
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const check = verifyPaymentSignature(body, req.headers["payment-signature"] as string | undefined, [paymentWebhookSecret()]);
      deliveries.push({ path: req.url ?? "", event: JSON.parse(body) as PaymentEvent, signatureOk: check.ok, contentType: req.headers["content-type"] });
      res.writeHead(answerStatus, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/webhooks/payment`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await stopJobs();
});
beforeEach(() => {
  deliveries = [];
  answerStatus = 200;
});

const provider = () => createTestProvider({ deliver: webhookDelivery(url) });
const base = { userId: "", email: "buyer@example.com", successUrl: "http://localhost:3000/ok", cancelUrl: "http://localhost:3000/no" };
let counter = 0;
const key = () => `test-key-${Date.now()}-${++counter}`;

describe("the built-in test provider", () => {
  it("is the provider without STRIPE_SECRET_KEY, and sends to the app's own webhook by default", () => {
    expect(paymentProvider().name).toBe("test");
    expect(webhookUrl()).toBe("http://localhost:3000/api/v1/webhooks/payment");
  });

  it("creates one session per idempotency key, with a hosted page on APP_URL", async () => {
    const idempotencyKey = key();
    const input = { ...base, mode: "payment" as const, amountMinor: 1999, currency: "usd", description: "Order X", metadata: { orderId: "o1" }, idempotencyKey };
    const sessions = await Promise.all(Array.from({ length: 5 }, () => provider().createCheckoutSession(input)));
    expect(new Set(sessions.map((s) => s.id)).size).toBe(1);
    expect(sessions[0]!.id).toMatch(/^cs_test_/);
    expect(sessions[0]!.url).toBe(`http://localhost:3000/checkout/test/${sessions[0]!.id}`);
    const stored = await provider().getSession(sessions[0]!.id);
    expect(stored).toMatchObject({ status: "open", amountMinor: 1999, currency: "USD", mode: "payment" });
    expect(stored!.customerId).toMatch(/^cus_test_/);
    expect(stored!.paymentIntentId).toMatch(/^pi_test_/);
    const other = await provider().createCheckoutSession({ ...input, idempotencyKey: key(), customerId: "cus_test_known" });
    expect(other.id).not.toBe(sessions[0]!.id);
    expect((await provider().getSession(other.id))!.customerId).toBe("cus_test_known");
  });

  it("Pay sends signed checkout.session.completed then payment_intent.succeeded, once; our handlers then confirm the order", async () => {
    const admin = await adminAccount();
    const product = await createTestProduct(admin, { price: 12.5, tagPack: 1 });
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 2 }]);
    const { sessionId } = await ok<{ sessionId: string }>(await checkout(buyer, order.id));

    expect(await provider().pay(sessionId)).toBe(true);
    expect(deliveries.map((d) => d.event.type)).toEqual(["checkout.session.completed", "payment_intent.succeeded"]);
    for (const delivery of deliveries) {
      expect(delivery.signatureOk).toBe(true);
      expect(delivery.path).toBe("/api/v1/webhooks/payment");
      expect(delivery.contentType).toBe("application/json");
      expect(delivery.event.id).toMatch(/^evt_test_/);
      expect(Math.abs(delivery.event.created - Date.now() / 1000)).toBeLessThan(60);
    }
    const [completed, succeeded] = deliveries.map((d) => d.event);
    expect(completed!.data.object).toMatchObject({
      id: sessionId,
      object: "checkout.session",
      mode: "payment",
      payment_status: "paid",
      amount_total: 2500,
      currency: "usd",
      metadata: { orderId: order.id, userId: buyer.id },
    });
    expect(completed!.data.object.customer).toMatch(/^cus_test_/);
    expect(succeeded!.data.object).toMatchObject({ id: completed!.data.object.payment_intent, object: "payment_intent", amount: 2500, currency: "usd", status: "succeeded", customer: completed!.data.object.customer });

    // Paying again sends nothing.
    expect(await provider().pay(sessionId)).toBe(false);
    expect(deliveries).toHaveLength(2);

    // What the provider sent is what our event handlers act on.
    const ctx = systemContext(getDatabase().db);
    await paymentSucceeded(ctx, succeeded!);
    await checkoutCompleted(ctx, completed!);
    expect(await orderRow(order.id)).toMatchObject({ status: "CONFIRMED", paymentStatus: "COMPLETED", paymentIntentId: succeeded!.data.object.id });

    // Refund: recorded at the provider, answered the same to a retry.
    const refund = await provider().refund({ paymentIntentId: succeeded!.data.object.id as string, idempotencyKey: key() });
    expect(refund).toMatchObject({ status: "succeeded" });
    expect(refund.id).toMatch(/^re_test_/);
    expect(await provider().refund({ paymentIntentId: succeeded!.data.object.id as string, idempotencyKey: key() })).toEqual(refund);
    expect((await provider().getSession(sessionId))!).toMatchObject({ refundId: refund.id, refundedMinor: 2500 });
    // A payment it does not know, or one not completed: refused as a provider error (502), not a bare error.
    await expect(provider().refund({ paymentIntentId: "pi_test_nothing", idempotencyKey: key() })).rejects.toMatchObject({
      code: "PAYMENT_PROVIDER_ERROR",
      details: { provider: "test", retryable: false, providerCode: "resource_missing" },
    });
    const open = await ok<{ sessionId: string }>(await checkout(buyer, (await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }])).id));
    const unpaidIntent = (await provider().getSession(open.sessionId))!.paymentIntentId!;
    await expect(provider().refund({ paymentIntentId: unpaidIntent, idempotencyKey: key() })).rejects.toMatchObject({ code: "PAYMENT_PROVIDER_ERROR", details: { providerCode: "charge_not_succeeded" } });
    // No event for refunds: the specification's six events have none.
    expect(deliveries).toHaveLength(2);
  });

  it("Decline sends payment_intent.payment_failed with the card's message and leaves the session open", async () => {
    const admin = await adminAccount();
    const product = await createTestProduct(admin);
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    const { sessionId } = await ok<{ sessionId: string }>(await checkout(buyer, order.id));
    expect(await provider().decline(sessionId)).toBe(true);
    expect(deliveries).toHaveLength(1);
    const [failed] = deliveries;
    expect(failed!.signatureOk).toBe(true);
    expect(failed!.event.type).toBe("payment_intent.payment_failed");
    expect(failed!.event.data.object).toMatchObject({ object: "payment_intent", amount: 999, currency: "usd", last_payment_error: { message: DECLINE_MESSAGE } });
    expect((await provider().getSession(sessionId))!.status).toBe("open");
    await paymentFailed(systemContext(getDatabase().db), failed!.event);
    expect(await orderRow(order.id)).toMatchObject({ status: "PENDING", paymentStatus: "FAILED", paymentError: DECLINE_MESSAGE });
    expect(await provider().decline("cs_test_unknown")).toBe(false);
  });

  it("subscription checkout: checkout.session.completed then customer.subscription.created with the tier and a 30-day period; cancel at period end sends customer.subscription.updated", async () => {
    const buyer = await registerAccount();
    const session = await provider().createCheckoutSession({ ...base, userId: buyer.id, mode: "subscription", amountMinor: 499, currency: "USD", description: "PRO plan", metadata: { tier: "PRO" }, idempotencyKey: key() });
    expect(await provider().pay(session.id)).toBe(true);
    expect(deliveries.map((d) => d.event.type)).toEqual(["checkout.session.completed", "customer.subscription.created"]);
    expect(deliveries.every((d) => d.signatureOk)).toBe(true);
    const [completed, created] = deliveries.map((d) => d.event);
    expect(completed!.data.object).toMatchObject({ mode: "subscription", metadata: { tier: "PRO", userId: buyer.id }, payment_intent: null });
    const subscription = created!.data.object as { id: string; customer: string; status: string; current_period_end: number; items: { data: { price: { metadata: { tier: string } } }[] } };
    expect(subscription.id).toMatch(/^sub_test_/);
    expect(subscription).toMatchObject({ status: "active", customer: completed!.data.object.customer, cancel_at_period_end: false });
    expect(subscription.items.data[0]!.price.metadata.tier).toBe("PRO");
    expect(subscription.current_period_end - Date.now() / 1000).toBeGreaterThan(29.9 * 86400);
    expect(completed!.data.object.subscription).toBe(subscription.id);

    const { currentPeriodEnd } = await provider().cancelSubscriptionAtPeriodEnd(subscription.id, key());
    expect(Math.floor(currentPeriodEnd.getTime() / 1000)).toBe(subscription.current_period_end);
    expect(deliveries).toHaveLength(3);
    expect(deliveries[2]!.event.type).toBe("customer.subscription.updated");
    expect(deliveries[2]!.event.data.object).toMatchObject({ id: subscription.id, cancel_at_period_end: true, customer: subscription.customer });
    expect(deliveries[2]!.signatureOk).toBe(true);
  });

  it("tries a refused delivery three times, then reports it", async () => {
    answerStatus = 500;
    const session = await provider().createCheckoutSession({ ...base, mode: "payment", amountMinor: 100, currency: "USD", description: "x", metadata: {}, idempotencyKey: key() });
    await expect(provider().decline(session.id)).rejects.toThrow(/500/);
    expect(deliveries).toHaveLength(3);
    expect(new Set(deliveries.map((d) => d.event.id)).size).toBe(1);
  });

  it("delivers after a refusal that passes: the same event, signed again", async () => {
    answerStatus = 503;
    const session = await provider().createCheckoutSession({ ...base, mode: "payment", amountMinor: 100, currency: "USD", description: "x", metadata: {}, idempotencyKey: key() });
    const declined = provider().decline(session.id);
    await expect.poll(() => deliveries.length).toBe(1);
    answerStatus = 200;
    await expect(declined).resolves.toBe(true);
    expect(deliveries).toHaveLength(2);
    expect(deliveries[1]!.event.id).toBe(deliveries[0]!.event.id);
    expect(deliveries.every((d) => d.signatureOk)).toBe(true);
  });
});
