import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { POST as reportRoute } from "@/app/api/v1/reports/route";
import { PATCH as reportPatchRoute } from "@/app/api/v1/admin/reports/[id]/route";
import { POST as reportActionRoute } from "@/app/api/v1/admin/reports/[id]/action/route";
import { PATCH as productPatchRoute } from "@/app/api/v1/admin/products/[id]/route";
import { PATCH as orderStatusRoute } from "@/app/api/v1/admin/orders/[id]/status/route";
import { POST as refundRoute } from "@/app/api/v1/orders/[id]/refund/route";
import { POST as mintRoute } from "@/app/api/v1/admin/tags/batch/route";
import { POST as replayRoute } from "@/app/api/v1/admin/payment-events/[id]/replay/route";
import { paymentEventHandler } from "@/lib/services/payment-events";
import { systemContext } from "@/lib/services/context";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import type { RouteHandler } from "@/lib/http/route";
import { apiRequest, call } from "../support/http";
import { adminAccount, checkout, createTestProduct, ok, orderRow, placeTestOrder } from "../support/shop";
import { mintTestTags } from "../support/tags";

const checkoutCompleted = paymentEventHandler("checkout.session.completed");

/**
 * Every admin write records exactly one audit entry in its own transaction: who, what, and the record
 * before and after. (PATCH /admin/users is covered in admin-platform.test.ts.)
 */

const db = () => getDatabase().db;

async function entriesFor(entityId: string) {
  return db().select().from(schema.auditLog).where(eq(schema.auditLog.entityId, entityId));
}

function send(handler: RouteHandler, path: string, method: string, who: TestAccount, body?: unknown, params: Record<string, string> = {}) {
  return call(handler, apiRequest(path, { method, headers: bearer(who.accessToken), body }), params);
}

/** A paid order (checkout through the built-in test provider, then its completion event). */
async function paidOrder(admin: TestAccount) {
  const product = await createTestProduct(admin, { stock: 5 });
  const buyer = await registerAccount();
  const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 1 }]);
  await ok(await checkout(buyer, order.id));
  const sessionId = (await orderRow(order.id)).paymentSessionId!;
  const [session] = await db().update(schema.testProviderSessions).set({ status: "complete", completedAt: new Date() }).where(eq(schema.testProviderSessions.id, sessionId)).returning();
  await checkoutCompleted(systemContext(db()), {
    id: `evt_audit_${order.id.slice(0, 8)}`,
    type: "checkout.session.completed",
    data: { object: { id: sessionId, mode: "payment", payment_status: "paid", customer: session!.customerId, payment_intent: session!.paymentIntentId, metadata: { orderId: order.id, userId: buyer.id } } },
  });
  return order;
}

describe("audit log of admin writes", () => {
  it("reports: a status change and an action each write one entry", async () => {
    const admin = await adminAccount();
    const reporter = await registerAccount();
    const target = await registerAccount();
    const report = await ok<{ id: string }>(await send(reportRoute, "/api/v1/reports", "POST", reporter, { type: "SPAM", description: "Spam.", targetUserId: target.id }), 201);

    await ok(await send(reportPatchRoute, `/api/v1/admin/reports/${report.id}`, "PATCH", admin, { status: "REVIEWING", adminNote: "Looking." }, { id: report.id }));
    let entries = await entriesFor(report.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: admin.id, action: "report.update", entityType: "report", before: { status: "OPEN", adminNote: null }, after: { status: "REVIEWING", adminNote: "Looking." } });

    await ok(await send(reportActionRoute, `/api/v1/admin/reports/${report.id}/action`, "POST", admin, { action: "DISMISS" }, { id: report.id }));
    entries = await entriesFor(report.id);
    expect(entries).toHaveLength(2);
    expect(entries.find((entry) => entry.action === "report.action")).toMatchObject({ before: { status: "REVIEWING", action: null }, after: { status: "DISMISSED", action: "DISMISS" } });
  });

  it("a SUSPEND_USER action also records the user's change", async () => {
    const admin = await adminAccount();
    const reporter = await registerAccount();
    const target = await registerAccount();
    const report = await ok<{ id: string }>(await send(reportRoute, "/api/v1/reports", "POST", reporter, { type: "HARASSMENT", description: "Threats.", targetUserId: target.id }), 201);
    await ok(await send(reportActionRoute, `/api/v1/admin/reports/${report.id}/action`, "POST", admin, { action: "SUSPEND_USER" }, { id: report.id }));
    expect(await entriesFor(report.id)).toHaveLength(1);
    const [userEntry] = await entriesFor(target.id);
    expect(userEntry).toMatchObject({ action: "user.update", entityType: "user", before: { role: "USER", suspendedAt: null }, after: { role: "USER" } });
    expect((userEntry!.after as { suspendedAt: string | null }).suspendedAt).not.toBeNull();
  });

  it("products: a create and an update each write one entry with the record", async () => {
    const admin = await adminAccount();
    const product = await createTestProduct(admin, { price: 5 });
    let entries = await entriesFor(product.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: admin.id, action: "product.create", entityType: "product", before: null, after: { id: product.id, price: 5 } });

    await ok(await send(productPatchRoute, `/api/v1/admin/products/${product.id}`, "PATCH", admin, { price: 7.5 }, { id: product.id }));
    entries = await entriesFor(product.id);
    expect(entries).toHaveLength(2);
    expect(entries.find((entry) => entry.action === "product.update")).toMatchObject({ before: { price: 5 }, after: { price: 7.5 } });
  });

  it("orders: an admin status change and a refund each write one entry", async () => {
    const admin = await adminAccount();
    const order = await paidOrder(admin);
    await ok(await send(orderStatusRoute, `/api/v1/admin/orders/${order.id}/status`, "PATCH", admin, { status: "PROCESSING" }, { id: order.id }));
    let entries = await entriesFor(order.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: "order.status", entityType: "order", before: { status: "CONFIRMED" }, after: { status: "PROCESSING" } });

    await ok(await send(refundRoute, `/api/v1/orders/${order.id}/refund`, "POST", admin, undefined, { id: order.id }));
    entries = await entriesFor(order.id);
    expect(entries).toHaveLength(2);
    expect(entries.find((entry) => entry.action === "order.refund")).toMatchObject({ before: { status: "PROCESSING", paymentStatus: "COMPLETED" }, after: { status: "REFUNDED", paymentStatus: "REFUNDED" } });
    // A refused write (already refunded) records nothing.
    expect((await send(refundRoute, `/api/v1/orders/${order.id}/refund`, "POST", admin, undefined, { id: order.id })).status).toBe(409);
    expect(await entriesFor(order.id)).toHaveLength(2);
  });

  it("tag minting by an admin writes one entry with the ids (never the codes); the system's minting none", async () => {
    const admin = await adminAccount();
    const minted = await ok<{ id: string; code: string }[]>(await send(mintRoute, "/api/v1/admin/tags/batch", "POST", admin, { count: 3, tagType: "PET" }), 201);
    const entries = await db().select().from(schema.auditLog).where(eq(schema.auditLog.actorId, admin.id));
    expect(entries.filter((entry) => entry.action === "tag.batch_mint")).toHaveLength(1);
    const entry = entries.find((row) => row.action === "tag.batch_mint")!;
    expect(entry).toMatchObject({ entityType: "tag_batch", after: { count: 3, tagType: "PET", tagIds: minted.map((tag) => tag.id) } });
    expect(JSON.stringify(entry.after)).not.toContain(minted[0]!.code.replace("-", ""));

    const before = (await db().select().from(schema.auditLog).where(eq(schema.auditLog.action, "tag.batch_mint"))).length;
    await mintTestTags(2);
    expect(await db().select().from(schema.auditLog).where(eq(schema.auditLog.action, "tag.batch_mint"))).toHaveLength(before);
  });

  it("a payment-event replay writes one entry", async () => {
    const admin = await adminAccount();
    const id = `evt_audit_replay_${Date.now()}`;
    await db().insert(schema.paymentEvents).values({ id, type: "checkout.session.completed", payload: { id }, status: "FAILED", attempts: 3, lastError: "boom" });
    await ok(await send(replayRoute, `/api/v1/admin/payment-events/${id}/replay`, "POST", admin, undefined, { id }), 202);
    const entries = await entriesFor(id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: admin.id, action: "payment_event.replay", entityType: "payment_event", before: { status: "FAILED", attempts: 3 }, after: { status: "RECEIVED" } });
  });
});
