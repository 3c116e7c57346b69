import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { systemContext } from "@/lib/services/context";
import { ABANDONED_ORDER_HOURS, cancelAbandonedOrders } from "@/lib/services/orders";
import { registerAccount } from "../support/auth";
import { adminAccount, createTestProduct, orderRow, payOrder, placeTestOrder, productRow } from "../support/shop";

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

const HOUR = 60 * 60 * 1000;
const sweep = (now: Date) => cancelAbandonedOrders(systemContext(getDatabase().db), { now });

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
}

async function expiryJobsFor(orderId: string): Promise<{ startAfter: Date }[]> {
  const result: unknown = await getDatabase().db.execute(
    sql`select start_after from pgboss.job where name = 'orders.expire-abandoned' and data->>'orderId' = ${orderId}`,
  );
  return rowsOf(result).map((row) => ({ startAfter: new Date(row.start_after as string) }));
}

async function orderNotices(userId: string, orderId: string) {
  return getDatabase()
    .db.select()
    .from(schema.notifications)
    .where(and(eq(schema.notifications.userId, userId), eq(schema.notifications.type, "ORDER_UPDATED"), sql`${schema.notifications.data}->>'orderId' = ${orderId}`));
}

describe("abandoned orders", () => {
  it("placing an order schedules its expiry at the deadline", async () => {
    expect(ABANDONED_ORDER_HOURS).toBe(24);
    const admin = await adminAccount();
    const product = await createTestProduct(admin, { stock: 3 });
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    const jobs = await expiryJobsFor(order.id);
    expect(jobs).toHaveLength(1);
    expect(Math.abs(jobs[0]!.startAfter.getTime() - (Date.parse(order.createdAt) + 24 * HOUR))).toBeLessThan(1000);
  });

  it("an order unpaid for 24 h (payment PENDING or FAILED) is cancelled and its units released; one paying or paid is left alone", async () => {
    const admin = await adminAccount();
    const product = await createTestProduct(admin, { stock: 10 });
    const buyer = await registerAccount();
    const unpaid = await placeTestOrder(buyer, [{ productId: product.id, quantity: 2 }]);
    const declined = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    const paying = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    const paidNotConfirmed = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    const confirmed = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    const db = getDatabase().db;
    await db.update(schema.orders).set({ paymentStatus: "FAILED", paymentError: "Your card was declined." }).where(eq(schema.orders.id, declined.id));
    await db.update(schema.orders).set({ paymentStatus: "PROCESSING" }).where(eq(schema.orders.id, paying.id));
    await db.update(schema.orders).set({ paymentStatus: "COMPLETED", paymentIntentId: "pi_test_waiting" }).where(eq(schema.orders.id, paidNotConfirmed.id));
    await payOrder(confirmed, buyer.id);
    expect(await productRow(product.id)).toMatchObject({ stock: 9, reserved: 5 });

    const placedAt = Date.parse(unpaid.createdAt);
    expect(await sweep(new Date(placedAt + 23 * HOUR))).toBe(0);
    expect(await orderRow(unpaid.id)).toMatchObject({ status: "PENDING" });

    const later = new Date(Date.parse(confirmed.createdAt) + 24 * HOUR + 1000);
    expect(await sweep(later)).toBeGreaterThanOrEqual(2);
    expect(await orderRow(unpaid.id)).toMatchObject({ status: "CANCELLED", paymentStatus: "PENDING", cancelledAt: later, reservationReleasedAt: later });
    expect(await orderRow(declined.id)).toMatchObject({ status: "CANCELLED", paymentStatus: "FAILED" });
    expect(await orderRow(paying.id)).toMatchObject({ status: "PENDING", paymentStatus: "PROCESSING" });
    expect(await orderRow(paidNotConfirmed.id)).toMatchObject({ status: "PENDING", paymentStatus: "COMPLETED" });
    expect(await orderRow(confirmed.id)).toMatchObject({ status: "CONFIRMED" });
    // 2 + 1 released; the paying and the paid-not-confirmed orders still hold theirs.
    expect(await productRow(product.id)).toMatchObject({ stock: 9, reserved: 2 });

    const notices = await orderNotices(buyer.id, unpaid.id);
    expect(notices.map((notice) => notice.title.replace(/^Order \w+ /, ""))).toEqual(["placed", "cancelled"]);
    expect(notices.find((notice) => notice.title.endsWith("cancelled"))!.body).toMatch(/not paid within 24 hours/);

    // Again: nothing more to do.
    expect(await sweep(new Date(later.getTime() + HOUR))).toBe(0);
    expect(await productRow(product.id)).toMatchObject({ stock: 9, reserved: 2 });
  });

  it("a payment that still arrives for the expired order goes to the refund path, with no stock or tags taken", async () => {
    const admin = await adminAccount();
    const product = await createTestProduct(admin, { stock: 4, tagPack: 1 });
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
    expect(await sweep(new Date(Date.parse(order.createdAt) + 25 * HOUR))).toBeGreaterThanOrEqual(1);
    expect(await productRow(product.id)).toMatchObject({ stock: 4, reserved: 0 });

    await payOrder(order, buyer.id);
    expect(await orderRow(order.id)).toMatchObject({ status: "CANCELLED", paymentStatus: "PROCESSING" });
    expect(await productRow(product.id)).toMatchObject({ stock: 4, reserved: 0 });
    expect(await getDatabase().db.select().from(schema.tags).where(eq(schema.tags.ownerId, buyer.id))).toHaveLength(0);
    // The existing late-payment path: its refund job is queued (orders.test.ts covers the refund itself).
    const refunds: unknown = await getDatabase().db.execute(sql`select id from pgboss.job where name = 'orders.refund' and data->>'orderId' = ${order.id}`);
    expect(rowsOf(refunds)).toHaveLength(1);
  });

  it("the scheduled job does it: an order placed 25 hours ago is cancelled when its job runs", async () => {
    const admin = await adminAccount();
    const product = await createTestProduct(admin, { stock: 2 });
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 2 }]);
    await getDatabase()
      .db.update(schema.orders)
      .set({ createdAt: new Date(Date.now() - 25 * HOUR) })
      .where(eq(schema.orders.id, order.id));

    const report = await runPendingJobs({ name: "orders.expire-abandoned", ignoreStartAfter: true });
    expect(report.failed).toBe(0);
    expect(report.completed).toBeGreaterThanOrEqual(1);
    expect(await orderRow(order.id)).toMatchObject({ status: "CANCELLED" });
    expect(await productRow(product.id)).toMatchObject({ stock: 2, reserved: 0 });
  });
});
