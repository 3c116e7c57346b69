import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { listMailbox } from "@/lib/email/mailbox";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { GET as listRoute } from "@/app/api/v1/orders/route";
import { GET as getRoute } from "@/app/api/v1/orders/[id]/route";
import { POST as cancelRoute } from "@/app/api/v1/orders/[id]/cancel/route";
import { POST as refundRoute } from "@/app/api/v1/orders/[id]/refund/route";
import { GET as invoiceRoute } from "@/app/api/v1/orders/[id]/invoice/route";
import { GET as adminListRoute } from "@/app/api/v1/admin/orders/route";
import { GET as statsRoute } from "@/app/api/v1/admin/stats/route";
import { GET as analyticsRoute } from "@/app/api/v1/admin/analytics/route";
import { log } from "@/lib/log";
import { paymentEventHandler } from "@/lib/services/payment-events";
import { systemContext } from "@/lib/services/context";
import { forceTagStatus } from "../support/tags";
import { PATCH as adminStatusRoute } from "@/app/api/v1/admin/orders/[id]/status/route";
import type { AdminOrderRecord, CheckoutResult, OrderRecord } from "@/lib/services/orders";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json } from "../support/http";
import {
  adminAccount,
  checkout,
  createTestProduct,
  errorOf,
  MISSING_ID,
  notificationsOf,
  ok,
  orderRow,
  payOrder,
  placeOrder,
  placeTestOrder,
  productRow,
} from "../support/shop";

const checkoutCompletedHandler = paymentEventHandler("checkout.session.completed");

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  await stopJobs();
});

const get = (account: TestAccount, id: string) => call(getRoute, apiRequest(`/api/v1/orders/${id}`, { headers: bearer(account.accessToken) }), { id });
const list = (account: TestAccount | null, query = "") => call(listRoute, apiRequest(`/api/v1/orders${query}`, { headers: account ? bearer(account.accessToken) : {} }));
const cancel = (account: TestAccount, id: string) => call(cancelRoute, apiRequest(`/api/v1/orders/${id}/cancel`, { method: "POST", headers: bearer(account.accessToken) }), { id });
const refund = (account: TestAccount | null, id: string) =>
  call(refundRoute, apiRequest(`/api/v1/orders/${id}/refund`, { method: "POST", headers: account ? bearer(account.accessToken) : {} }), { id });
const invoice = (account: TestAccount, id: string) => call(invoiceRoute, apiRequest(`/api/v1/orders/${id}/invoice`, { headers: bearer(account.accessToken) }), { id });
const adminList = (account: TestAccount, query = "") => call(adminListRoute, apiRequest(`/api/v1/admin/orders${query}`, { headers: bearer(account.accessToken) }));
const adminStatus = (account: TestAccount, id: string, body: unknown) =>
  call(adminStatusRoute, apiRequest(`/api/v1/admin/orders/${id}/status`, { method: "PATCH", headers: bearer(account.accessToken), body }), { id });

let admin: TestAccount;
beforeAll(async () => {
  admin = await adminAccount();
});

describe("POST /orders", () => {
  it("prices the order from the catalogue (whatever the body says), reserves the stock and starts PENDING", async () => {
    const product = await createTestProduct(admin, { price: 12.99, stock: 10, variants: [{ name: "Gold", price: 15.5 }] });
    const other = await createTestProduct(admin, { price: 4.25, stock: 10, tagPack: 0 });
    const buyer = await registerAccount();
    const response = await placeOrder(buyer, {
      items: [
        { productId: product.id, quantity: 2, price: 0.01 },
        { productId: product.id, quantity: 1, variantId: product.variants[0]!.id },
        { productId: other.id, quantity: 3 },
      ],
      shippingAddress: { line1: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701", country: "us" },
      total: 0.01,
      status: "CONFIRMED",
    });
    const order = await ok<OrderRecord>(response, 201);
    expect(order).toMatchObject({ status: "PENDING", paymentStatus: "PENDING", total: 54.23, currency: "USD", paymentSessionId: null, refundId: null });
    expect(order.shippingAddress).toMatchObject({ country: "US", city: "Springfield" });
    expect(order.items.map((item) => [item.name, item.quantity, item.price, item.variant]).sort()).toEqual(
      [
        [product.name, 2, 12.99, null],
        [product.name, 1, 15.5, "Gold"],
        [other.name, 3, 4.25, null],
      ].sort(),
    );
    expect((await productRow(product.id)).reserved).toBe(3);
    expect((await productRow(other.id)).reserved).toBe(3);
    expect((await notificationsOf(buyer.id)).map((n) => n.type)).toContain("ORDER_UPDATED");
  });

  it("refuses unknown products and variants (400 naming the line), mixed currencies (400), bad quantities (400) and no credential (401)", async () => {
    const buyer = await registerAccount();
    const product = await createTestProduct(admin, { variants: [{ name: "A", price: 1 }] });
    const another = await createTestProduct(admin, { variants: [{ name: "B", price: 1 }] });
    const euro = await createTestProduct(admin, { currency: "EUR" });
    const hidden = await createTestProduct(admin, { active: false });

    const unknown = await errorOf(await placeOrder(buyer, { items: [{ productId: product.id, quantity: 1 }, { productId: MISSING_ID, quantity: 1 }] }));
    expect(unknown).toMatchObject({ status: 400, code: "VALIDATION_ERROR", details: { fieldErrors: { "items.1.productId": [expect.any(String)] } } });
    expect((await errorOf(await placeOrder(buyer, { items: [{ productId: hidden.id, quantity: 1 }] }))).code).toBe("VALIDATION_ERROR");
    const wrongVariant = await errorOf(await placeOrder(buyer, { items: [{ productId: product.id, quantity: 1, variantId: another.variants[0]!.id }] }));
    expect(wrongVariant).toMatchObject({ status: 400, details: { fieldErrors: { "items.0.variantId": [expect.any(String)] } } });
    expect(await errorOf(await placeOrder(buyer, { items: [{ productId: product.id, quantity: 1 }, { productId: euro.id, quantity: 1 }] }))).toMatchObject({
      status: 400,
      code: "VALIDATION_ERROR",
      details: { fieldErrors: { items: [expect.stringContaining("currency")] } },
    });
    for (const items of [[], [{ productId: product.id, quantity: 0 }], [{ productId: product.id, quantity: 101 }], [{ productId: product.id, quantity: 1.5 }], [{ productId: "x", quantity: 1 }]]) {
      expect((await errorOf(await placeOrder(buyer, { items }))).code, JSON.stringify(items)).toBe("VALIDATION_ERROR");
    }
    expect((await errorOf(await placeOrder(buyer, { items: [{ productId: product.id, quantity: 1 }], shippingAddress: { line1: "x" } }))).code).toBe("VALIDATION_ERROR");
    expect((await errorOf(await placeOrder({ ...buyer, accessToken: "bad" }, { items: [{ productId: product.id, quantity: 1 }] }))).status).toBe(401);
    // Nothing was reserved by any refused order.
    expect((await productRow(product.id)).reserved).toBe(0);
  });

  it("answers 422 when not enough stock is free, keeping nothing of the order", async () => {
    const buyer = await registerAccount();
    const plenty = await createTestProduct(admin, { stock: 10 });
    const scarce = await createTestProduct(admin, { stock: 2 });
    const refused = await errorOf(await placeOrder(buyer, { items: [{ productId: plenty.id, quantity: 5 }, { productId: scarce.id, quantity: 2 }, { productId: scarce.id, quantity: 1 }] }));
    expect(refused).toMatchObject({ status: 422, code: "UNPROCESSABLE_ENTITY", details: { productId: scarce.id, available: 2, requested: 3 } });
    expect((await productRow(plenty.id)).reserved).toBe(0);
    expect(await getDatabase().db.select().from(schema.orders).where(eq(schema.orders.userId, buyer.id))).toHaveLength(0);
  });

  it("sells the last 3 units to exactly 3 of 10 concurrent orders", async () => {
    const product = await createTestProduct(admin, { stock: 3 });
    // Buyers sign up one after another (ten password hashes at once can outlast the request budget on a
    // busy 2-core machine); the orders themselves race.
    const buyers: Awaited<ReturnType<typeof registerAccount>>[] = [];
    for (let i = 0; i < 10; i++) buyers.push(await registerAccount());
    const responses = await Promise.all(buyers.map((buyer) => placeOrder(buyer, { items: [{ productId: product.id, quantity: 1 }] })));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 201, 422, 422, 422, 422, 422, 422, 422]);
    expect(await productRow(product.id)).toMatchObject({ stock: 3, reserved: 3 });
  });
});

describe("reading orders", () => {
  it("lists the caller's orders only, newest first, paginated; another user's order is 404 like a random id", async () => {
    const product = await createTestProduct(admin);
    const buyer = await registerAccount();
    const stranger = await registerAccount();
    const first = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    const second = await placeTestOrder(buyer, [{ productId: product.id, quantity: 2 }]);
    const theirs = await placeTestOrder(stranger, [{ productId: product.id, quantity: 1 }]);

    const page = await json<{ data: OrderRecord[]; meta: unknown }>(await list(buyer, "?limit=1"));
    expect(page.meta).toMatchObject({ total: 2, page: 1, totalPages: 2 });
    expect(page.data.map((o) => o.id)).toEqual([second.id]);
    const all = await ok<OrderRecord[]>(await list(buyer));
    expect(all.map((o) => o.id).sort()).toEqual([first.id, second.id].sort());
    expect((await errorOf(await list(buyer, "?limit=101"))).code).toBe("VALIDATION_ERROR");
    expect((await errorOf(await list(null))).status).toBe(401);

    expect((await ok<OrderRecord>(await get(buyer, first.id))).id).toBe(first.id);
    const foreign = await errorOf(await get(buyer, theirs.id));
    const random = await errorOf(await get(buyer, MISSING_ID));
    expect(foreign).toEqual(random);
    expect(foreign.status).toBe(404);
    expect((await errorOf(await get(buyer, "not-a-uuid"))).status).toBe(404);
    for (const call of [cancel(buyer, theirs.id), invoice(buyer, theirs.id), checkout(buyer, theirs.id)]) expect((await errorOf(await call)).status).toBe(404);
  });
});

describe("POST /orders/:id/checkout", () => {
  it("opens the provider's hosted checkout, records the session, and answers the same session to concurrent calls", async () => {
    const product = await createTestProduct(admin);
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    const results = await Promise.all(Array.from({ length: 10 }, () => checkout(buyer, order.id)));
    const sessions = await Promise.all(results.map((response) => ok<CheckoutResult>(response)));
    expect(new Set(sessions.map((s) => s.sessionId)).size).toBe(1);
    const [session] = sessions;
    expect(session!.sessionId).toMatch(/^cs_test_/);
    expect(session!.checkoutUrl).toBe(`http://localhost:3000/checkout/test/${session!.sessionId}`);
    expect((await orderRow(order.id)).paymentSessionId).toBe(session!.sessionId);
    const stored = await getDatabase().db.select().from(schema.testProviderSessions).where(eq(schema.testProviderSessions.idempotencyKey, `order-checkout-${order.id}`));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ mode: "payment", amountMinor: 999, currency: "USD", metadata: { orderId: order.id, userId: buyer.id } });
    expect(stored[0]!.successUrl).toBe(`http://localhost:3000/dashboard/orders/${order.id}?checkout=success`);
    // Still PENDING until the provider's event is processed.
    expect((await orderRow(order.id)).status).toBe("PENDING");
  });

  it("is 409 for an order that is not PENDING", async () => {
    const product = await createTestProduct(admin);
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    await ok(await cancel(buyer, order.id));
    expect(await errorOf(await checkout(buyer, order.id))).toMatchObject({ status: 409, code: "CONFLICT" });
    const paid = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    await payOrder(paid, buyer.id);
    expect((await errorOf(await checkout(buyer, paid.id))).status).toBe(409);
  });
});

describe("GET /orders/:id/invoice", () => {
  it("is 409 before payment and a printable HTML document after, with every user text escaped", async () => {
    const product = await createTestProduct(admin, { name: "Tag <script>alert(1)</script>", price: 7.5 });
    const buyer = await registerAccount({ firstName: "Zoë", lastName: "<b>Bold</b>" });
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 2 }]);
    expect(await errorOf(await invoice(buyer, order.id))).toMatchObject({ status: 409, code: "CONFLICT" });
    await payOrder(order, buyer.id);
    const response = await invoice(buyer, order.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("Invoice");
    expect(html).toContain("Tag Service");
    expect(html).toContain(buyer.email);
    expect(html).toContain("$15.00");
    expect(html).toContain("Springfield");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<b>Bold</b>");
    // Its one <style> is allowed by hash, and nothing else inline is.
    const policy = response.headers.get("content-security-policy")!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(policy).toContain(`style-src 'sha256-${createHash("sha256").update(style).digest("base64")}'`);
    expect(policy).not.toContain("unsafe-inline");
  });
});

describe("POST /orders/:id/cancel", () => {
  it("cancels a PENDING order and releases its reservation; a second cancel is 409", async () => {
    const product = await createTestProduct(admin, { stock: 5 });
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 2 }]);
    expect((await productRow(product.id)).reserved).toBe(2);
    const result = await ok<{ id: string; status: string; paymentStatus: string; message: string }>(await cancel(buyer, order.id));
    expect(result).toMatchObject({ id: order.id, status: "CANCELLED", paymentStatus: "PENDING" });
    expect(await productRow(product.id)).toMatchObject({ stock: 5, reserved: 0 });
    expect(await errorOf(await cancel(buyer, order.id))).toMatchObject({ status: 409, code: "CONFLICT" });
    expect((await productRow(product.id)).reserved).toBe(0);
  });

  it("cancels a paid, unshipped order with a refund: PROCESSING, then REFUNDED once the provider's refund is recorded; stock back, unused tags withdrawn", async () => {
    const product = await createTestProduct(admin, { stock: 5, tagPack: 2 });
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    await ok(await checkout(buyer, order.id));
    const session = (await orderRow(order.id)).paymentSessionId!;
    // Pay at the test provider's side (its records), then deliver its checkout event to our handler.
    const [providerSession] = await getDatabase().db.update(schema.testProviderSessions).set({ status: "complete", completedAt: new Date() }).where(eq(schema.testProviderSessions.id, session)).returning();
    const handle = (await import("@/lib/services/payment-events")).paymentEventHandler("checkout.session.completed");
    const { systemContext } = await import("@/lib/services/context");
    await handle(systemContext(getDatabase().db), {
      id: "evt_test_cancelpaid",
      type: "checkout.session.completed",
      data: { object: { id: session, mode: "payment", payment_status: "paid", customer: providerSession!.customerId, payment_intent: providerSession!.paymentIntentId, metadata: { orderId: order.id, userId: buyer.id } } },
    });
    expect(await productRow(product.id)).toMatchObject({ stock: 4, reserved: 0 });
    const tagIds = (await ok<OrderRecord>(await get(buyer, order.id))).items[0]!.tagIds;
    expect(tagIds).toHaveLength(2);

    const result = await ok<{ status: string; paymentStatus: string }>(await cancel(buyer, order.id));
    expect(result).toMatchObject({ status: "CANCELLED", paymentStatus: "PROCESSING" });
    expect(await productRow(product.id)).toMatchObject({ stock: 5, reserved: 0 });
    expect(await getDatabase().db.select().from(schema.tags).where(eq(schema.tags.ownerId, buyer.id))).toHaveLength(0);

    const report = await runPendingJobs({ name: "orders.refund" });
    expect(report.failed).toBe(0);
    const refunded = await orderRow(order.id);
    expect(refunded).toMatchObject({ status: "CANCELLED", paymentStatus: "REFUNDED", refundedMinor: 999 });
    expect(refunded.refundId).toMatch(/^re_test_/);
    const [provider] = await getDatabase().db.select().from(schema.testProviderSessions).where(eq(schema.testProviderSessions.id, session));
    expect(provider!.refundId).toBe(refunded.refundId);
    // The job is idempotent: a second run refunds nothing more.
    const { completeOrderRefund } = await import("@/lib/services/orders");
    expect(await completeOrderRefund(systemContext(getDatabase().db), order.id)).toBe("nothing-to-do");
    // The invoice stays available and says it was refunded.
    expect(await (await invoice(buyer, order.id)).text()).toContain("Refunded");
  });

  it("refuses to cancel a shipped or delivered order (409)", async () => {
    const product = await createTestProduct(admin);
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    await payOrder(order, buyer.id);
    await ok(await adminStatus(admin, order.id, { status: "SHIPPED", trackingNumber: "1Z999" }));
    expect(await errorOf(await cancel(buyer, order.id))).toMatchObject({ status: 409, code: "CONFLICT" });
    await ok(await adminStatus(admin, order.id, { status: "DELIVERED" }));
    expect((await errorOf(await cancel(buyer, order.id))).status).toBe(409);
  });
});

describe("admin fulfilment", () => {
  it("moves CONFIRMED → PROCESSING → SHIPPED (tracking number required, shipping e-mail) → DELIVERED, notifying the buyer each time", async () => {
    const product = await createTestProduct(admin);
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    expect(await errorOf(await adminStatus(admin, order.id, { status: "PROCESSING" }))).toMatchObject({ status: 409, code: "CONFLICT", details: { status: "PENDING" } });
    await payOrder(order, buyer.id);
    const before = (await notificationsOf(buyer.id)).length;

    expect((await ok<AdminOrderRecord>(await adminStatus(admin, order.id, { status: "PROCESSING" }))).status).toBe("PROCESSING");
    expect(await errorOf(await adminStatus(admin, order.id, { status: "SHIPPED" }))).toMatchObject({ status: 400, code: "VALIDATION_ERROR", details: { fieldErrors: { trackingNumber: [expect.any(String)] } } });
    expect(await errorOf(await adminStatus(admin, order.id, { status: "DELIVERED" }))).toMatchObject({ status: 409 });
    const shipped = await ok<AdminOrderRecord>(await adminStatus(admin, order.id, { status: "SHIPPED", trackingNumber: "1Z999AA10123456784", carrier: "UPS" }));
    expect(shipped).toMatchObject({ status: "SHIPPED", trackingNumber: "1Z999AA10123456784", carrier: "UPS", userId: buyer.id, userEmail: buyer.email });
    expect(shipped.shippedAt).not.toBeNull();
    expect(await errorOf(await adminStatus(admin, order.id, { status: "PROCESSING" }))).toMatchObject({ status: 409 });
    const delivered = await ok<AdminOrderRecord>(await adminStatus(admin, order.id, { status: "DELIVERED" }));
    expect(delivered.deliveredAt).not.toBeNull();
    expect((await errorOf(await adminStatus(admin, order.id, { status: "CANCELLED" }))).code).toBe("VALIDATION_ERROR");

    const updates = (await notificationsOf(buyer.id)).slice(before).filter((n) => n.type === "ORDER_UPDATED");
    expect(updates.map((n) => (n.data as { status: string }).status).sort()).toEqual(["DELIVERED", "PROCESSING", "SHIPPED"]);
    expect((await runPendingJobs({ name: "email.send" })).failed).toBe(0);
    const mails = await listMailbox({ to: buyer.email });
    const shippedMail = mails.find((mail) => mail.subject.includes("shipped"));
    expect(shippedMail?.text).toContain("1Z999AA10123456784");
    expect(mails.filter((mail) => mail.subject.includes("shipped"))).toHaveLength(1);
  });

  it("lists every order for admins, filtered by status; users get 403, unknown orders 404", async () => {
    const product = await createTestProduct(admin);
    const buyer = await registerAccount();
    const pending = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    const paid = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    await payOrder(paid, buyer.id);
    const confirmed = await ok<AdminOrderRecord[]>(await adminList(admin, "?status=CONFIRMED&limit=100"));
    expect(confirmed.every((o) => o.status === "CONFIRMED")).toBe(true);
    expect(confirmed.map((o) => o.id)).toContain(paid.id);
    expect(confirmed.map((o) => o.id)).not.toContain(pending.id);
    expect(confirmed.find((o) => o.id === paid.id)).toMatchObject({ userId: buyer.id, userEmail: buyer.email });
    expect((await errorOf(await adminList(admin, "?status=LOST"))).code).toBe("VALIDATION_ERROR");
    expect((await errorOf(await adminList(buyer))).status).toBe(403);
    expect((await errorOf(await adminStatus(buyer, paid.id, { status: "PROCESSING" }))).status).toBe(403);
    expect((await errorOf(await adminStatus(admin, MISSING_ID, { status: "PROCESSING" }))).status).toBe(404);
  });
});

describe("POST /orders/:id/refund (admin)", () => {
  it("refunds a paid order once (REFUNDED, refundId); again, or unpaid, is 409; users 403, no credential 401", async () => {
    const product = await createTestProduct(admin, { stock: 5 });
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    expect(await errorOf(await refund(admin, order.id))).toMatchObject({ status: 409, code: "CONFLICT" });
    await ok(await checkout(buyer, order.id));
    const sessionId = (await orderRow(order.id)).paymentSessionId!;
    const [session] = await getDatabase().db.update(schema.testProviderSessions).set({ status: "complete", completedAt: new Date() }).where(eq(schema.testProviderSessions.id, sessionId)).returning();
    const handle = (await import("@/lib/services/payment-events")).paymentEventHandler("checkout.session.completed");
    const { systemContext } = await import("@/lib/services/context");
    await handle(systemContext(getDatabase().db), {
      id: "evt_test_refund",
      type: "checkout.session.completed",
      data: { object: { id: sessionId, mode: "payment", payment_status: "paid", customer: session!.customerId, payment_intent: session!.paymentIntentId, metadata: { orderId: order.id, userId: buyer.id } } },
    });
    expect((await errorOf(await refund(buyer, order.id))).status).toBe(403);
    expect((await errorOf(await refund(null, order.id))).status).toBe(401);
    const result = await ok<{ id: string; status: string; paymentStatus: string; refundId: string }>(await refund(admin, order.id));
    expect(result).toMatchObject({ id: order.id, status: "REFUNDED", paymentStatus: "REFUNDED" });
    expect(result.refundId).toMatch(/^re_test_/);
    expect((await ok<OrderRecord>(await get(buyer, order.id))).refundId).toBe(result.refundId);
    expect(await productRow(product.id)).toMatchObject({ stock: 5, reserved: 0 });
    expect(await errorOf(await refund(admin, order.id))).toMatchObject({ status: 409, code: "CONFLICT" });
    expect((await errorOf(await cancel(buyer, order.id))).status).toBe(409);
    expect((await errorOf(await refund(admin, MISSING_ID))).status).toBe(404);
    const [invoiceRow] = await getDatabase().db.select().from(schema.invoices).where(eq(schema.invoices.orderId, order.id));
    expect(invoiceRow!.status).toBe("refunded");
  });
});

/** Checks out an order at the test provider, completes its payment there, and delivers the paid checkout event. */
async function payAtProvider(buyer: TestAccount, orderId: string) {
  await ok(await checkout(buyer, orderId));
  const sessionId = (await orderRow(orderId)).paymentSessionId!;
  const [session] = await getDatabase().db.update(schema.testProviderSessions).set({ status: "complete", completedAt: new Date() }).where(eq(schema.testProviderSessions.id, sessionId)).returning();
  await checkoutCompletedHandler(systemContext(getDatabase().db), {
    id: `evt_test_paid_${orderId.slice(0, 8)}`,
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: sessionId, mode: "payment", payment_status: "paid", customer: session!.customerId, payment_intent: session!.paymentIntentId, metadata: { orderId, userId: buyer.id } } },
  });
  return session!;
}

async function mailsTo(email: string) {
  expect((await runPendingJobs({ name: "notifications.email" })).failed).toBe(0);
  expect((await runPendingJobs({ name: "email.send" })).failed).toBe(0);
  return listMailbox({ to: email });
}

describe("refunds at the payment provider", () => {
  it("a refund the provider refuses (a payment it does not know) is 502 PAYMENT_PROVIDER_ERROR, the provider's message logged, nothing written", async () => {
    const product = await createTestProduct(admin, { stock: 5 });
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    // Paid by an event naming a payment intent the test provider never issued.
    await payOrder(order, buyer.id);
    const before = await orderRow(order.id);
    const warn = vi.spyOn(log, "warn");
    try {
      const refused = await errorOf(await refund(admin, order.id));
      expect(refused).toMatchObject({ status: 502, code: "PAYMENT_PROVIDER_ERROR", details: { provider: "test", retryable: false, providerCode: "resource_missing" } });
      const logged = warn.mock.calls.find(([message]) => message === "payment provider call failed");
      expect(logged?.[1]).toMatchObject({ provider: "test", operation: "refunds.create", providerMessage: `No such payment_intent: '${before.paymentIntentId}'` });
    } finally {
      warn.mockRestore();
    }
    const after = await orderRow(order.id);
    expect(after).toMatchObject({ status: "CONFIRMED", paymentStatus: "COMPLETED", refundId: null, refundedMinor: 0, refundedAt: null });
    expect(await productRow(product.id)).toMatchObject({ stock: 4, reserved: 0 });
    expect((await getDatabase().db.select().from(schema.invoices).where(eq(schema.invoices.orderId, order.id)))[0]!.status).toBe("paid");
    expect((await getDatabase().db.select().from(schema.auditLog).where(eq(schema.auditLog.entityId, order.id))).filter((entry) => entry.action === "order.refund")).toHaveLength(0);
  });

  it("a full refund says which tags were withdrawn and which stay: cancelled before shipping (set-up tags stay), refunded after shipping (all stay)", async () => {
    const product = await createTestProduct(admin, { stock: 5, tagPack: 3 });
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    await payAtProvider(buyer, order.id);
    const tagIds = (await ok<OrderRecord>(await get(buyer, order.id))).items[0]!.tagIds;
    expect(tagIds).toHaveLength(3);
    await forceTagStatus(tagIds[0]!, "ACTIVE", { itemName: "Keys" });

    const cancelled = await ok<{ message: string; refund: string }>(await cancel(buyer, order.id));
    expect(cancelled.refund).toBe("STARTED");
    expect(cancelled.message).toContain("2 tags from this order that were not set up yet were withdrawn from your account.");
    expect(cancelled.message).toContain("1 tag you had already set up stays in your account and keeps working.");
    const record = await ok<OrderRecord>(await get(buyer, order.id));
    expect(record.tagsWithdrawn).toBe(2);
    expect(record.items[0]!.tagIds).toEqual([tagIds[0]]);
    expect((await runPendingJobs({ name: "orders.refund" })).failed).toBe(0);
    const mails = await mailsTo(buyer.email);
    const refundMail = mails.find((mail) => mail.subject.includes("Refund for order"));
    expect(refundMail?.text).toContain("2 tags from this order that were not set up yet were withdrawn");
    expect(refundMail?.text).toContain("1 tag you had already set up stays in your account");

    const shippedOrder = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    await payAtProvider(buyer, shippedOrder.id);
    await ok(await adminStatus(admin, shippedOrder.id, { status: "SHIPPED", trackingNumber: "1Z1" }));
    await ok(await refund(admin, shippedOrder.id));
    const refunded = await ok<OrderRecord>(await get(buyer, shippedOrder.id));
    expect(refunded).toMatchObject({ status: "REFUNDED", tagsWithdrawn: 0 });
    expect(refunded.items[0]!.tagIds).toHaveLength(3);
    const refundedMail = (await mailsTo(buyer.email)).find((mail) => mail.subject.includes(`Order ${shippedOrder.id.slice(0, 8).toUpperCase()} refunded`));
    expect(refundedMail?.text).toContain("The 3 tags from this order stay in your account and keep working: the order had already shipped.");
  });
});

describe("money beyond 2^31 minor units", () => {
  it("an order totalling 30,000,000.00 (3 × 10^9 minor units) is placed, paid, invoiced, counted in admin stats and analytics, and refunded without a 500", async () => {
    // Three lines at the price cap (100,000.00) × the quantity cap (100); a currency no other test here uses.
    const products = await Promise.all(Array.from({ length: 3 }, () => createTestProduct(admin, { price: 100_000, stock: 101, tagPack: 0, currency: "CHF" })));
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, products.map((product) => ({ productId: product.id, quantity: 100 })));
    expect(order.total).toBe(30_000_000);
    expect(3_000_000_000).toBeGreaterThan(2 ** 31);
    const session = await payAtProvider(buyer, order.id);
    expect(session.amountMinor).toBe(3_000_000_000);
    expect(await orderRow(order.id)).toMatchObject({ status: "CONFIRMED", totalMinor: 3_000_000_000 });
    const [invoiceRow] = await getDatabase().db.select().from(schema.invoices).where(eq(schema.invoices.orderId, order.id));
    expect(invoiceRow!.amountMinor).toBe(3_000_000_000);
    expect(await (await invoice(buyer, order.id)).text()).toContain("30,000,000.00");

    const stats = await ok<{ orders: { revenue: { currency: string; amount: number }[] } }>(await call(statsRoute, apiRequest("/api/v1/admin/stats", { headers: bearer(admin.accessToken) })));
    expect(stats.orders.revenue.find((row) => row.currency === "CHF")).toEqual({ currency: "CHF", amount: 30_000_000 });
    const today = new Date().toISOString().slice(0, 10);
    const days = await ok<{ date: string; revenue: { currency: string; amount: number }[] }[]>(
      await call(analyticsRoute, apiRequest(`/api/v1/admin/analytics?from=${today}&to=${today}`, { headers: bearer(admin.accessToken) })),
    );
    expect(days[0]!.revenue.find((row) => row.currency === "CHF")).toEqual({ currency: "CHF", amount: 30_000_000 });

    // A second such order: the sums pass 2^32 and still come out exact.
    const second = await placeTestOrder(buyer, products.map((product) => ({ productId: product.id, quantity: 1 })));
    await payAtProvider(buyer, second.id);
    const again = await ok<{ orders: { revenue: { currency: string; amount: number }[] } }>(await call(statsRoute, apiRequest("/api/v1/admin/stats", { headers: bearer(admin.accessToken) })));
    expect(again.orders.revenue.find((row) => row.currency === "CHF")).toEqual({ currency: "CHF", amount: 30_300_000 });

    const refunded = await ok<{ status: string }>(await refund(admin, order.id));
    expect(refunded.status).toBe("REFUNDED");
    expect(await orderRow(order.id)).toMatchObject({ refundedMinor: 3_000_000_000 });
  });
});

describe("the shipping address's recipient and country", () => {
  it("keeps an optional recipient name (a body without one still places), prints the country's name on the invoice, and the latest address is the buyer's last", async () => {
    const product = await createTestProduct(admin, { price: 3, stock: 10, tagPack: 0 });
    const buyer = await registerAccount();
    const { lastShippingAddress } = await import("@/lib/services/orders");
    const asBuyer = { db: getDatabase().db, actor: { kind: "user" as const, userId: buyer.id, role: "USER" as const, ip: "127.0.0.1" } };
    expect(await lastShippingAddress(asBuyer)).toBeNull();

    // A caller written before the name existed: still 201, and no name stored.
    const older = await ok<OrderRecord>(await placeOrder(buyer, { items: [{ productId: product.id, quantity: 1 }], shippingAddress: { line1: "1 Old Road", city: "Springfield", postalCode: "62701", country: "US" } }), 201);
    expect(older.shippingAddress?.name ?? null).toBeNull();
    expect((await errorOf(await placeOrder(buyer, { items: [{ productId: product.id, quantity: 1 }], shippingAddress: { name: "x".repeat(201), line1: "1 Main St", city: "Berlin", postalCode: "10115", country: "DE" } }))).code).toBe("VALIDATION_ERROR");

    const named = await ok<OrderRecord>(
      await placeOrder(buyer, { items: [{ productId: product.id, quantity: 1 }], shippingAddress: { name: "  Maria Garcia ", line1: "Hauptstraße 5", city: "Berlin", postalCode: "10115", country: "de" } }),
      201,
    );
    expect(named.shippingAddress).toMatchObject({ name: "Maria Garcia", country: "DE" });
    expect((await ok<OrderRecord>(await call(getRoute, apiRequest(`/api/v1/orders/${named.id}`, { headers: bearer(buyer.accessToken) }), { id: named.id }))).shippingAddress).toMatchObject({ name: "Maria Garcia" });
    // An order without an address does not hide the last one that had it.
    await ok<OrderRecord>(await placeOrder(buyer, { items: [{ productId: product.id, quantity: 1 }] }), 201);
    expect(await lastShippingAddress(asBuyer)).toMatchObject({ name: "Maria Garcia", line1: "Hauptstraße 5", country: "DE" });

    await payOrder(named, buyer.id);
    const html = await (await invoice(buyer, named.id)).text();
    expect(html).toContain("<div>Maria Garcia</div>");
    expect(html).toContain("<div>Germany</div>");
    expect(html).not.toContain("<div>DE</div>");
  });
});
