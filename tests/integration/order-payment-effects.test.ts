import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { listMailbox } from "@/lib/email/mailbox";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { systemContext } from "@/lib/services/context";
import { paymentEventHandler } from "@/lib/services/payment-events";
import { POST as cancelRoute } from "@/app/api/v1/orders/[id]/cancel/route";
import { registerAccount, bearer, type TestAccount } from "../support/auth";
import { apiRequest, call } from "../support/http";
import {
  adminAccount,
  checkout,
  checkoutCompletedEvent,
  createTestProduct,
  notificationsOf,
  ok,
  orderRow,
  paymentIntentEvent,
  placeTestOrder,
  productRow,
} from "../support/shop";

const checkoutCompleted = paymentEventHandler("checkout.session.completed");
const paymentSucceeded = paymentEventHandler("payment_intent.succeeded");
const paymentFailed = paymentEventHandler("payment_intent.payment_failed");

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  await stopJobs();
});

const ctx = () => systemContext(getDatabase().db);
let admin: TestAccount;
beforeAll(async () => {
  admin = await adminAccount();
});

async function tagsOf(userId: string) {
  return getDatabase().db.select().from(schema.tags).where(eq(schema.tags.ownerId, userId));
}

async function mailsTo(email: string) {
  // Notification e-mails go through notifications.email, which sends through email.send.
  expect((await runPendingJobs({ name: "notifications.email" })).failed).toBe(0);
  expect((await runPendingJobs({ name: "email.send" })).failed).toBe(0);
  return listMailbox({ to: email });
}

/** A buyer with a PENDING order: 2 × a 5-pack (10 tags) and 1 × a non-tag product. */
async function pendingOrder() {
  const pack = await createTestProduct(admin, { price: 39.99, stock: 10, tagPack: 5, tagType: "PET" });
  const sticker = await createTestProduct(admin, { price: 2, stock: 10, tagPack: 0 });
  const buyer = await registerAccount();
  const order = await placeTestOrder(buyer, [
    { productId: pack.id, quantity: 2 },
    { productId: sticker.id, quantity: 1 },
  ]);
  return { buyer, order, pack, sticker };
}

describe("checkout.session.completed (payment)", () => {
  it("confirms the order: tags minted for the buyer, stock taken, invoice, confirmation e-mail, notification, customer linked", async () => {
    const { buyer, order, pack, sticker } = await pendingOrder();
    const event = checkoutCompletedEvent(order, buyer.id);
    await checkoutCompleted(ctx(), event);

    const row = await orderRow(order.id);
    expect(row).toMatchObject({ status: "CONFIRMED", paymentStatus: "COMPLETED", paymentIntentId: event.data.object.payment_intent, paymentSessionId: event.data.object.id });
    expect(row.paidAt?.getTime()).toBe(event.created * 1000);
    expect(row.reservationReleasedAt).not.toBeNull();
    expect(await productRow(pack.id)).toMatchObject({ stock: 8, reserved: 0 });
    expect(await productRow(sticker.id)).toMatchObject({ stock: 9, reserved: 0 });

    const tags = await tagsOf(buyer.id);
    expect(tags).toHaveLength(10);
    expect(tags.every((tag) => tag.status === "PENDING_SETUP" && tag.tagType === "PET")).toBe(true);
    const items = await getDatabase().db.select().from(schema.orderItems).where(eq(schema.orderItems.orderId, order.id));
    const packItem = items.find((item) => item.productId === pack.id)!;
    expect(packItem.tagsMintedAt).not.toBeNull();
    const links = await getDatabase().db.select().from(schema.orderTags).where(eq(schema.orderTags.orderItemId, packItem.id));
    expect(links.map((link) => link.tagId).sort()).toEqual(tags.map((tag) => tag.id).sort());
    const events = await getDatabase().db.select().from(schema.tagEvents).where(inArray(schema.tagEvents.tagId, tags.map((t) => t.id)));
    expect(events).toHaveLength(10);

    const invoices = await getDatabase().db.select().from(schema.invoices).where(eq(schema.invoices.orderId, order.id));
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ userId: buyer.id, amountMinor: 8198, currency: "USD", status: "paid" });
    const [customer] = await getDatabase().db.select().from(schema.paymentCustomers).where(eq(schema.paymentCustomers.userId, buyer.id));
    expect(customer!.providerCustomerId).toBe(event.data.object.customer);

    const confirmed = (await notificationsOf(buyer.id)).filter((n) => n.type === "ORDER_UPDATED" && (n.data as { status: string }).status === "CONFIRMED");
    expect(confirmed).toHaveLength(1);
    const mails = await mailsTo(buyer.email);
    const confirmation = mails.filter((mail) => mail.subject.includes("confirmed"));
    expect(confirmation).toHaveLength(1);
    expect(confirmation[0]!.text).toContain("$81.98");
    expect(confirmation[0]!.text).toContain("10 tags were added");
  });

  it("does everything once when the same event arrives twice, or 10 times at once", async () => {
    const { buyer, order, pack } = await pendingOrder();
    const event = checkoutCompletedEvent(order, buyer.id);
    await checkoutCompleted(ctx(), event);
    await checkoutCompleted(ctx(), event);
    await Promise.all(Array.from({ length: 10 }, () => checkoutCompleted(ctx(), { ...event, id: `${event.id}-${Math.random()}` })));
    expect(await tagsOf(buyer.id)).toHaveLength(10);
    expect(await productRow(pack.id)).toMatchObject({ stock: 8, reserved: 0 });
    expect(await getDatabase().db.select().from(schema.invoices).where(eq(schema.invoices.orderId, order.id))).toHaveLength(1);
    expect((await mailsTo(buyer.email)).filter((mail) => mail.subject.includes("confirmed"))).toHaveLength(1);
    expect((await notificationsOf(buyer.id)).filter((n) => (n.data as { status?: string }).status === "CONFIRMED")).toHaveLength(1);
  });

  it("confirms concurrently delivered events for one order exactly once (10 at once, fresh order)", async () => {
    const { buyer, order, pack } = await pendingOrder();
    const event = checkoutCompletedEvent(order, buyer.id);
    await Promise.all(Array.from({ length: 10 }, () => checkoutCompleted(ctx(), event)));
    expect(await tagsOf(buyer.id)).toHaveLength(10);
    expect(await productRow(pack.id)).toMatchObject({ stock: 8, reserved: 0 });
    expect((await mailsTo(buyer.email)).filter((mail) => mail.subject.includes("confirmed"))).toHaveLength(1);
  });

  it("works when payment_intent.succeeded arrives first", async () => {
    const { buyer, order } = await pendingOrder();
    const completed = checkoutCompletedEvent(order, buyer.id);
    const paymentIntentId = completed.data.object.payment_intent;
    await paymentSucceeded(ctx(), paymentIntentEvent("payment_intent.succeeded", paymentIntentId, { metadata: { orderId: order.id } }));
    expect(await orderRow(order.id)).toMatchObject({ status: "PENDING", paymentStatus: "COMPLETED", paymentIntentId });
    await checkoutCompleted(ctx(), completed);
    expect(await orderRow(order.id)).toMatchObject({ status: "CONFIRMED", paymentStatus: "COMPLETED" });
    expect(await tagsOf(buyer.id)).toHaveLength(10);
    // And after: nothing changes.
    await paymentSucceeded(ctx(), paymentIntentEvent("payment_intent.succeeded", paymentIntentId));
    expect(await orderRow(order.id)).toMatchObject({ status: "CONFIRMED", paymentStatus: "COMPLETED" });
  });

  it("ignores events for no known order, and a payment intent nobody knows", async () => {
    const { buyer, order } = await pendingOrder();
    await checkoutCompleted(ctx(), checkoutCompletedEvent({ id: "00000000-0000-4000-8000-000000000000" }, buyer.id, { id: "cs_test_unknown" }));
    await paymentSucceeded(ctx(), paymentIntentEvent("payment_intent.succeeded", "pi_test_nobody"));
    await paymentFailed(ctx(), paymentIntentEvent("payment_intent.payment_failed", "pi_test_nobody", { last_payment_error: { message: "x" } }));
    await checkoutCompleted(ctx(), { id: "evt_test_garbage", type: "checkout.session.completed", data: { object: { metadata: "nope", mode: 7 } } });
    expect(await orderRow(order.id)).toMatchObject({ status: "PENDING", paymentStatus: "PENDING" });
  });

  it("refunds a payment that arrives for an order the buyer already cancelled, and tells them", async () => {
    const { buyer, order, pack } = await pendingOrder();
    await ok(await checkout(buyer, order.id));
    const sessionId = (await orderRow(order.id)).paymentSessionId!;
    await ok(await call(cancelRoute, apiRequest(`/api/v1/orders/${order.id}/cancel`, { method: "POST", headers: bearer(buyer.accessToken) }), { id: order.id }));
    // The buyer had paid at the provider's page at the same time.
    const [session] = await getDatabase().db.update(schema.testProviderSessions).set({ status: "complete", completedAt: new Date() }).where(eq(schema.testProviderSessions.id, sessionId)).returning();
    await checkoutCompleted(ctx(), checkoutCompletedEvent(order, buyer.id, { id: sessionId, payment_intent: session!.paymentIntentId, customer: session!.customerId }));
    expect(await orderRow(order.id)).toMatchObject({ status: "CANCELLED", paymentStatus: "PROCESSING", paymentIntentId: session!.paymentIntentId });
    expect(await tagsOf(buyer.id)).toHaveLength(0);
    expect(await productRow(pack.id)).toMatchObject({ stock: 10, reserved: 0 });
    expect((await notificationsOf(buyer.id)).some((n) => n.title.includes("being refunded"))).toBe(true);
    expect((await runPendingJobs({ name: "orders.refund" })).failed).toBe(0);
    const refunded = await orderRow(order.id);
    expect(refunded).toMatchObject({ status: "CANCELLED", paymentStatus: "REFUNDED" });
    expect(refunded.refundId).toMatch(/^re_test_/);
  });
});

/** The order's history entries (the audit log's entries for this order), oldest first. */
async function historyOf(orderId: string) {
  const rows = await getDatabase().db.select().from(schema.auditLog).where(eq(schema.auditLog.entityId, orderId));
  return rows.filter((row) => row.entityType === "order").sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** A PENDING order checked out at the test provider; the provider's session row (its payment intent and customer). */
async function checkedOutOrder() {
  const placed = await pendingOrder();
  await ok(await checkout(placed.buyer, placed.order.id));
  const sessionId = (await orderRow(placed.order.id)).paymentSessionId!;
  const [session] = await getDatabase().db.select().from(schema.testProviderSessions).where(eq(schema.testProviderSessions.id, sessionId));
  return { ...placed, session: session! };
}

/** The provider's side of "the delayed payment went through": its record completes, as its Pay button would do. */
async function providerCompletes(sessionId: string) {
  await getDatabase().db.update(schema.testProviderSessions).set({ status: "complete", completedAt: new Date() }).where(eq(schema.testProviderSessions.id, sessionId));
}

const cancelAs = (buyer: TestAccount, orderId: string) => call(cancelRoute, apiRequest(`/api/v1/orders/${orderId}/cancel`, { method: "POST", headers: bearer(buyer.accessToken) }), { id: orderId });

describe("a payment that completes after the order was cancelled", () => {
  it("session completed unpaid → cancel → payment_intent.succeeded: refunded once by the refund job, recorded in the order's history, the buyer told by e-mail; never confirmed", async () => {
    const { buyer, order, pack, sticker, session } = await checkedOutOrder();
    const unpaid = checkoutCompletedEvent(order, buyer.id, { id: session.id, payment_status: "unpaid", payment_intent: session.paymentIntentId, customer: session.customerId });
    await checkoutCompleted(ctx(), unpaid);
    expect(await orderRow(order.id)).toMatchObject({ status: "PENDING", paymentStatus: "PROCESSING", paymentIntentId: session.paymentIntentId });

    // Cancelled while the payment is in flight: cancelled at once, with the promise of a refund if it completes.
    const cancelled = await ok<{ status: string; paymentStatus: string; refund: string; message: string }>(await cancelAs(buyer, order.id));
    expect(cancelled).toMatchObject({ status: "CANCELLED", paymentStatus: "PROCESSING", refund: "IF_PAYMENT_COMPLETES" });
    expect(cancelled.message).toContain("refunded in full automatically");
    expect(cancelled.message).not.toContain("Nothing was charged");
    expect(await productRow(pack.id)).toMatchObject({ stock: 10, reserved: 0 });
    // Nothing to refund yet: the job does nothing while the payment is in flight.
    const { completeOrderRefund } = await import("@/lib/services/orders");
    expect(await completeOrderRefund(ctx(), order.id)).toBe("nothing-to-do");

    // The payment completes after all; its event arrives twice, then ten identical copies at once.
    await providerCompletes(session.id);
    const succeeded = paymentIntentEvent("payment_intent.succeeded", session.paymentIntentId!, { metadata: { orderId: order.id } });
    await paymentSucceeded(ctx(), succeeded);
    await paymentSucceeded(ctx(), succeeded);
    await Promise.all(Array.from({ length: 10 }, () => paymentSucceeded(ctx(), succeeded)));
    // The session's own "paid" event arriving late changes nothing either.
    await checkoutCompleted(ctx(), { ...unpaid, id: `${unpaid.id}-paid`, data: { object: { ...unpaid.data.object, payment_status: "paid" } } });

    const started = await orderRow(order.id);
    expect(started).toMatchObject({ status: "CANCELLED", paymentStatus: "PROCESSING" });
    expect(started.paidAt).not.toBeNull();
    expect(await tagsOf(buyer.id)).toHaveLength(0);
    expect(await productRow(pack.id)).toMatchObject({ stock: 10, reserved: 0 });
    expect(await productRow(sticker.id)).toMatchObject({ stock: 10, reserved: 0 });
    expect(await getDatabase().db.select().from(schema.invoices).where(eq(schema.invoices.orderId, order.id))).toHaveLength(0);
    expect((await historyOf(order.id)).map((entry) => entry.action)).toEqual(["order.late_payment_refund"]);

    const jobs = await runPendingJobs({ name: "orders.refund" });
    expect(jobs.failed).toBe(0);
    const refunded = await orderRow(order.id);
    expect(refunded).toMatchObject({ status: "CANCELLED", paymentStatus: "REFUNDED", refundedMinor: 8198 });
    const [provider] = await getDatabase().db.select().from(schema.testProviderSessions).where(eq(schema.testProviderSessions.id, session.id));
    expect(provider!.refundId).toBe(refunded.refundId);
    expect(provider!.refundedMinor).toBe(8198);
    expect(await completeOrderRefund(ctx(), order.id)).toBe("nothing-to-do");
    const history = await historyOf(order.id);
    expect(history.map((entry) => [entry.action, entry.actorId, entry.actorEmail])).toEqual([
      ["order.late_payment_refund", null, "system: payment provider event"],
      ["order.refund", null, "system: refund job"],
    ]);
    expect(history[1]!.after).toMatchObject({ status: "CANCELLED", paymentStatus: "REFUNDED", refundId: refunded.refundId });

    const mails = await mailsTo(buyer.email);
    expect(mails.filter((mail) => mail.subject.includes("is being refunded"))).toHaveLength(1);
    const done = mails.filter((mail) => mail.subject.includes("Refund for order"));
    expect(done).toHaveLength(1);
    expect(done[0]!.text).toContain("arrived after this order was cancelled was refunded");
    expect(done[0]!.text).toContain("$81.98");
    expect(mails.some((mail) => mail.subject.includes("confirmed"))).toBe(false);
  });

  it("cancel while in flight, then the payment fails: FAILED, nothing refunded", async () => {
    const { buyer, order, session } = await checkedOutOrder();
    await checkoutCompleted(ctx(), checkoutCompletedEvent(order, buyer.id, { id: session.id, payment_status: "unpaid", payment_intent: session.paymentIntentId }));
    await ok(await cancelAs(buyer, order.id));
    await paymentFailed(ctx(), paymentIntentEvent("payment_intent.payment_failed", session.paymentIntentId!, { last_payment_error: { message: "The bank refused the debit." } }));
    expect(await orderRow(order.id)).toMatchObject({ status: "CANCELLED", paymentStatus: "FAILED", paymentError: "The bank refused the debit.", refundId: null });
    expect((await runPendingJobs({ name: "orders.refund" })).failed).toBe(0);
    expect((await orderRow(order.id)).refundId).toBeNull();
  });

  it("the reverse order: payment succeeds first, then cancel → CANCELLED with the refund started (as before), refunded once", async () => {
    const { buyer, order, session } = await checkedOutOrder();
    await checkoutCompleted(ctx(), checkoutCompletedEvent(order, buyer.id, { id: session.id, payment_status: "unpaid", payment_intent: session.paymentIntentId }));
    await providerCompletes(session.id);
    await paymentSucceeded(ctx(), paymentIntentEvent("payment_intent.succeeded", session.paymentIntentId!, { metadata: { orderId: order.id } }));
    expect(await orderRow(order.id)).toMatchObject({ status: "PENDING", paymentStatus: "COMPLETED" });
    const cancelled = await ok<{ paymentStatus: string; refund: string }>(await cancelAs(buyer, order.id));
    expect(cancelled).toMatchObject({ paymentStatus: "PROCESSING", refund: "STARTED" });
    // The session's paid event arriving after the cancel is not a second, late payment.
    await checkoutCompleted(ctx(), checkoutCompletedEvent(order, buyer.id, { id: session.id, payment_intent: session.paymentIntentId }));
    expect((await runPendingJobs({ name: "orders.refund" })).failed).toBe(0);
    const refunded = await orderRow(order.id);
    expect(refunded).toMatchObject({ status: "CANCELLED", paymentStatus: "REFUNDED" });
    expect(refunded.refundId).toMatch(/^re_test_/);
    expect(await tagsOf(buyer.id)).toHaveLength(0);
    expect((await historyOf(order.id)).map((entry) => entry.action)).toEqual(["order.refund"]);
    const done = (await mailsTo(buyer.email)).filter((mail) => mail.subject.includes("Refund for order"));
    expect(done).toHaveLength(1);
    expect(done[0]!.text).toContain("We refunded $81.98");
  });
});

describe("checkout.session.completed (subscription)", () => {
  it("only links the provider's customer to metadata.userId", async () => {
    const buyer = await registerAccount();
    await checkoutCompleted(ctx(), {
      id: "evt_test_sub",
      type: "checkout.session.completed",
      data: { object: { id: "cs_test_sub", mode: "subscription", customer: "cus_test_sub1", subscription: "sub_test_1", metadata: { userId: buyer.id, tier: "PRO" } } },
    });
    const [customer] = await getDatabase().db.select().from(schema.paymentCustomers).where(eq(schema.paymentCustomers.userId, buyer.id));
    expect(customer!.providerCustomerId).toBe("cus_test_sub1");
    expect(await getDatabase().db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, buyer.id))).toHaveLength(0);
  });
});

describe("payment_intent.payment_failed", () => {
  it("marks the payment FAILED with the provider's message and notifies once per event; the order stays PENDING and can be paid again", async () => {
    const { buyer, order } = await pendingOrder();
    await ok(await checkout(buyer, order.id));
    const completed = checkoutCompletedEvent(order, buyer.id);
    const paymentIntentId = completed.data.object.payment_intent;
    const failure = paymentIntentEvent("payment_intent.payment_failed", paymentIntentId, { metadata: { orderId: order.id }, last_payment_error: { message: "Your card was declined." } });
    await paymentFailed(ctx(), failure);
    await paymentFailed(ctx(), failure);
    expect(await orderRow(order.id)).toMatchObject({ status: "PENDING", paymentStatus: "FAILED", paymentError: "Your card was declined.", paymentIntentId });
    const failures = (await notificationsOf(buyer.id)).filter((n) => n.type === "PAYMENT_FAILED");
    expect(failures).toHaveLength(1);
    expect(failures[0]!.body).toContain("Your card was declined.");
    expect((await mailsTo(buyer.email)).filter((mail) => mail.subject.includes("failed"))).toHaveLength(1);

    // Checkout again, then the payment goes through.
    await ok(await checkout(buyer, order.id));
    await paymentSucceeded(ctx(), paymentIntentEvent("payment_intent.succeeded", paymentIntentId));
    await checkoutCompleted(ctx(), completed);
    expect(await orderRow(order.id)).toMatchObject({ status: "CONFIRMED", paymentStatus: "COMPLETED", paymentError: null });
    // A late failure after success changes nothing.
    await paymentFailed(ctx(), paymentIntentEvent("payment_intent.payment_failed", paymentIntentId, { last_payment_error: { message: "late" } }));
    expect(await orderRow(order.id)).toMatchObject({ status: "CONFIRMED", paymentStatus: "COMPLETED" });
  });
});
