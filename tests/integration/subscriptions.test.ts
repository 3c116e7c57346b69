import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import type { RouteHandler } from "@/lib/http/route";
import type { PaymentProvider } from "@/lib/payments/types";
import type { EventDelivery, TestProvider } from "@/lib/payments/test-provider";
import type { BillingRecord } from "@/lib/services/subscriptions";
import { apiRequest, call } from "../support/http";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { giveTestTag } from "../support/tags";
import { adminAccount, createTestProduct, errorOf, ok, payOrder, placeTestOrder } from "../support/shop";
import { signedHeaders, subscriptionEvent, TEST_WEBHOOK_SECRET } from "../support/payments";

/**
 * Subscribing, cancelling and billing through the real routes, with the subscription itself driven the
 * way production drives it: the built-in test provider's Pay sends its signed events into our real
 * webhook route, and the stored events are processed by the real job handlers. Only the provider's HTTP
 * hop is replaced (its deliveries call the route handler with a real Request), and paymentProvider() is
 * that provider, with a spy on cancelSubscriptionAtPeriodEnd.
 */
type Jobs = typeof import("@/lib/jobs");
let webhook: RouteHandler;
let subscribeRoute: { POST: RouteHandler; DELETE: RouteHandler; GET: RouteHandler };
let billingRoute: { GET: RouteHandler; POST: RouteHandler };
let jobs: Jobs;
let test: TestProvider;
let provider: PaymentProvider & { cancelSubscriptionAtPeriodEnd: ReturnType<typeof vi.fn<PaymentProvider["cancelSubscriptionAtPeriodEnd"]>> };

const intoWebhook: EventDelivery = async (body, headers) => {
  const response = await call(webhook, apiRequest("/api/v1/webhooks/payment", { method: "POST", rawBody: body, headers, ip: "198.18.0.41" }));
  if (!response.ok) throw new Error(`webhook answered ${response.status}`);
};

beforeAll(async () => {
  vi.stubEnv("PAYMENT_WEBHOOK_SECRET", TEST_WEBHOOK_SECRET);
  vi.resetModules();
  vi.doMock("@/lib/payments/provider", () => ({ paymentProvider: () => provider }));
  webhook = (await import("@/app/api/v1/webhooks/payment/route")).POST;
  subscribeRoute = (await import("@/app/api/v1/orders/subscribe/route")) as unknown as typeof subscribeRoute;
  billingRoute = (await import("@/app/api/v1/orders/billing/route")) as unknown as typeof billingRoute;
  const { createTestProvider } = await import("@/lib/payments/test-provider");
  test = createTestProvider({ deliver: intoWebhook, secret: TEST_WEBHOOK_SECRET });
  provider = { ...test, cancelSubscriptionAtPeriodEnd: vi.fn(test.cancelSubscriptionAtPeriodEnd) };
  jobs = await import("@/lib/jobs");
  await jobs.prepareJobs();
});

afterAll(async () => {
  await jobs?.stopJobs();
  vi.doUnmock("@/lib/payments/provider");
  vi.unstubAllEnvs();
  vi.resetModules();
});

const processEvents = async () => {
  const report = await jobs.runPendingJobs({ name: "payments.process-event" });
  expect(report.failed).toBe(0);
};

function subscribe(account: TestAccount | null, body: unknown = { tier: "PRO" }): Promise<Response> {
  return call(subscribeRoute.POST, apiRequest("/api/v1/orders/subscribe", { method: "POST", body, headers: account ? bearer(account.accessToken) : {} }));
}
function cancel(account: TestAccount | null): Promise<Response> {
  return call(subscribeRoute.DELETE, apiRequest("/api/v1/orders/subscribe", { method: "DELETE", headers: account ? bearer(account.accessToken) : {} }));
}
function billing(account: TestAccount | null): Promise<Response> {
  return call(billingRoute.GET, apiRequest("/api/v1/orders/billing", { headers: account ? bearer(account.accessToken) : {} }));
}

async function sessionsOf(userId: string) {
  return getDatabase()
    .db.select()
    .from(schema.testProviderSessions)
    .where(sql`${schema.testProviderSessions.metadata}->>'userId' = ${userId}`);
}

async function subscriptionNotices(userId: string) {
  return getDatabase()
    .db.select()
    .from(schema.notifications)
    .where(and(eq(schema.notifications.userId, userId), eq(schema.notifications.type, "SUBSCRIPTION_UPDATED")));
}

/** Subscribes through the API and pays at the test provider; the events are processed. */
async function subscribeAndPay(account: TestAccount): Promise<string> {
  const { sessionId } = await ok<{ sessionId: string }>(await subscribe(account));
  expect(await test.pay(sessionId)).toBe(true);
  await processEvents();
  return sessionId;
}

describe("without credentials", () => {
  it("every billing endpoint is 401", async () => {
    for (const response of [await subscribe(null), await cancel(null), await billing(null)]) {
      expect(await errorOf(response)).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    }
  });
});

describe("POST /orders/subscribe", () => {
  it("accepts only the PRO tier: anything else is 400", async () => {
    const user = await registerAccount();
    for (const body of [{ tier: "PREMIUM" }, { tier: "FREE" }, { tier: "pro" }, {}, { tier: 1 }]) {
      const error = await errorOf(await subscribe(user, body));
      expect(error, JSON.stringify(body)).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    }
    expect(await sessionsOf(user.id)).toHaveLength(0);
  });

  it("opens one provider session for concurrent calls: PRO's price, the user and tier as metadata, back to the billing page", async () => {
    const user = await registerAccount();
    const answers = await Promise.all(Array.from({ length: 5 }, () => subscribe(user)));
    const results = await Promise.all(answers.map((response) => ok<{ checkoutUrl: string; sessionId: string }>(response)));
    expect(new Set(results.map((result) => result.sessionId)).size).toBe(1);
    expect(results[0]!.checkoutUrl).toMatch(new RegExp(`/checkout/test/${results[0]!.sessionId}$`));
    const sessions = await sessionsOf(user.id);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      mode: "subscription",
      amountMinor: 499,
      currency: "USD",
      status: "open",
      metadata: { userId: user.id, tier: "PRO" },
    });
    expect(sessions[0]!.successUrl).toMatch(/\/dashboard\/billing\?checkout=success$/);
    expect(sessions[0]!.cancelUrl).toMatch(/\/dashboard\/billing\?checkout=cancelled$/);
    // Nothing changes on our side until the provider's events arrive.
    const view = await ok<BillingRecord>(await billing(user));
    expect(view.subscription).toEqual({ tier: "FREE", status: null, currentPeriodEnd: null, cancelAtPeriodEnd: false });
  });

  it("is 409 while a paid plan is in force, including one an admin granted", async () => {
    const user = await registerAccount();
    await getDatabase().db.update(schema.users).set({ subscription: "PREMIUM" }).where(eq(schema.users.id, user.id));
    expect(await errorOf(await subscribe(user))).toMatchObject({ status: 409, code: "CONFLICT", details: { tier: "PREMIUM" } });
    expect(await sessionsOf(user.id)).toHaveLength(0);
  });
});

describe("the subscription's life, through the test provider and the webhook", () => {
  it("billing before and after: FREE with 5 tags, then PRO with 50 and the period's invoice; cancel at period end keeps PRO until then", async () => {
    const user = await registerAccount();
    await giveTestTag(user.id, { status: "ACTIVE", itemName: "Keys" });
    await giveTestTag(user.id, { status: "DEACTIVATED", itemName: "Old" });

    const before = await ok<BillingRecord>(await billing(user));
    expect(before).toEqual({
      subscription: { tier: "FREE", status: null, currentPeriodEnd: null, cancelAtPeriodEnd: false },
      tagLimit: 5,
      tagsUsed: 1,
      paymentMethod: null,
      invoices: [],
    });
    expect(await errorOf(await cancel(user))).toMatchObject({ status: 404, code: "NOT_FOUND" });

    const sessionId = await subscribeAndPay(user);
    const session = (await test.getSession(sessionId))!;
    const [customer] = await getDatabase().db.select().from(schema.paymentCustomers).where(eq(schema.paymentCustomers.userId, user.id));
    expect(customer?.providerCustomerId).toBe(session.customerId);

    const after = await ok<BillingRecord>(await billing(user));
    expect(after.subscription).toMatchObject({ tier: "PRO", status: "ACTIVE", cancelAtPeriodEnd: false });
    const periodEnd = new Date(after.subscription.currentPeriodEnd!).getTime();
    expect(periodEnd - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
    expect(after).toMatchObject({ tagLimit: 50, tagsUsed: 1, paymentMethod: null });
    expect(after.invoices).toHaveLength(1);
    expect(after.invoices[0]).toMatchObject({ amount: 4.99, currency: "USD", status: "paid", orderId: null, invoiceUrl: null });
    expect(after.invoices[0]!.description).toMatch(/^Pro plan, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/);

    expect(await errorOf(await subscribe(user))).toMatchObject({ status: 409, code: "CONFLICT", details: { tier: "PRO", status: "ACTIVE" } });

    const cancelled = await ok<{ message: string; endsAt: string }>(await cancel(user));
    expect(cancelled.endsAt).toBe(after.subscription.currentPeriodEnd);
    expect(cancelled.message).toContain(cancelled.endsAt.slice(0, 10));
    expect(provider.cancelSubscriptionAtPeriodEnd).toHaveBeenCalledTimes(1);
    expect(provider.cancelSubscriptionAtPeriodEnd.mock.calls[0]![0]).toBe(session.subscriptionId);

    // The provider's own customer.subscription.updated arrives too: same state, no second notice, no second invoice.
    await processEvents();
    const cancelledView = await ok<BillingRecord>(await billing(user));
    expect(cancelledView.subscription).toEqual({ tier: "PRO", status: "ACTIVE", currentPeriodEnd: after.subscription.currentPeriodEnd, cancelAtPeriodEnd: true });
    expect(cancelledView.invoices).toHaveLength(1);
    const notices = await subscriptionNotices(user.id);
    expect(notices.map((notice) => notice.title).sort()).toEqual(["Your Pro plan is active", "Your Pro plan will end"]);

    // Asking again answers the same end, without the provider.
    expect(await ok<{ endsAt: string }>(await cancel(user))).toMatchObject({ endsAt: cancelled.endsAt });
    expect(provider.cancelSubscriptionAtPeriodEnd).toHaveBeenCalledTimes(1);
    // Still in force until then: no second subscription.
    expect(await errorOf(await subscribe(user))).toMatchObject({ status: 409, code: "CONFLICT" });

    // The period ends: the provider deletes it. Billing is FREE again; subscribing opens a new session for the same customer.
    const ended = subscriptionEvent("deleted", { subscriptionId: session.subscriptionId!, customer: session.customerId, created: Math.floor(Date.now() / 1000) + 1 });
    const body = JSON.stringify(ended);
    const delivered = await call(webhook, apiRequest("/api/v1/webhooks/payment", { method: "POST", rawBody: body, headers: signedHeaders(body), ip: "198.18.0.41" }));
    expect(delivered.status).toBe(200);
    await processEvents();
    const free = await ok<BillingRecord>(await billing(user));
    expect(free).toMatchObject({ subscription: { tier: "FREE", status: "CANCELED", cancelAtPeriodEnd: false }, tagLimit: 5 });
    expect(await errorOf(await cancel(user))).toMatchObject({ status: 404, code: "NOT_FOUND" });
    const again = await ok<{ sessionId: string }>(await subscribe(user));
    expect(again.sessionId).not.toBe(sessionId);
    expect((await test.getSession(again.sessionId))!.customerId).toBe(session.customerId);
  });

  it("lists order invoices (with the printable invoice's link) and subscription periods newest first, and only the caller's", async () => {
    const admin = await adminAccount();
    const product = await createTestProduct(admin, { price: 12.5, stock: 5 });
    const user = await registerAccount();
    const order = await placeTestOrder(user, [{ productId: product.id, quantity: 2 }]);
    await payOrder(order, user.id);
    // Paid an hour earlier: both are stamped in whole seconds, and one second could hold both.
    await getDatabase()
      .db.update(schema.invoices)
      .set({ issuedAt: new Date(Date.now() - 3_600_000) })
      .where(eq(schema.invoices.orderId, order.id));
    await subscribeAndPay(user);

    const view = await ok<BillingRecord>(await billing(user));
    expect(view.invoices.map((invoice) => invoice.orderId)).toEqual([null, order.id]);
    expect(view.invoices[1]).toMatchObject({ amount: 25, currency: "USD", status: "paid", invoiceUrl: `http://localhost:3000/api/v1/orders/${order.id}/invoice` });
    expect(Date.parse(view.invoices[0]!.date)).toBeGreaterThan(Date.parse(view.invoices[1]!.date));

    const someoneElse = await registerAccount();
    expect((await ok<BillingRecord>(await billing(someoneElse))).invoices).toEqual([]);
    expect(await errorOf(await cancel(someoneElse))).toMatchObject({ status: 404, code: "NOT_FOUND" });
  });

  it("the other methods answer 405 with Allow", async () => {
    const user = await registerAccount();
    const wrong = await call(subscribeRoute.GET, apiRequest("/api/v1/orders/subscribe", { headers: bearer(user.accessToken) }));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST, DELETE, OPTIONS");
    const post = await call(billingRoute.POST, apiRequest("/api/v1/orders/billing", { method: "POST", headers: bearer(user.accessToken), body: {} }));
    expect(post.status).toBe(405);
  });
});
