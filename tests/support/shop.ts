import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { POST as createProductRoute } from "@/app/api/v1/admin/products/route";
import { POST as createOrderRoute } from "@/app/api/v1/orders/route";
import { POST as checkoutRoute } from "@/app/api/v1/orders/[id]/checkout/route";
import { systemContext } from "@/lib/services/context";
import { paymentEventHandler } from "@/lib/services/payment-events";
import type { AdminProductRecord, OrderRecord } from "@/lib/services/orders";
import { bearer, registerAccount, setRole, type TestAccount } from "./auth";
import { apiRequest, call, json } from "./http";

const checkoutCompleted = paymentEventHandler("checkout.session.completed");

export const MISSING_ID = "00000000-0000-4000-8000-000000000000";

export async function adminAccount(): Promise<TestAccount> {
  const admin = await registerAccount();
  await setRole(admin.id, "ADMIN");
  return admin;
}

export async function ok<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

export async function errorOf(response: Response): Promise<{ status: number; code: string; message: string; details?: Record<string, unknown> }> {
  const body = await json<{ success: boolean; error: { code: string; message: string; details?: Record<string, unknown> } }>(response);
  return { status: response.status, ...body.error };
}

/** A product made through the admin API (unique slug), with stock and optional variants. */
export async function createTestProduct(admin: TestAccount, overrides: Record<string, unknown> = {}): Promise<AdminProductRecord> {
  const body = { name: `Test tag ${randomBytes(3).toString("hex")}`, price: 9.99, stock: 50, tagPack: 1, ...overrides };
  return ok<AdminProductRecord>(await call(createProductRoute, apiRequest("/api/v1/admin/products", { method: "POST", headers: bearer(admin.accessToken), body })), 201);
}

export function placeOrder(account: TestAccount, body: unknown): Promise<Response> {
  return call(createOrderRoute, apiRequest("/api/v1/orders", { method: "POST", headers: bearer(account.accessToken), body }));
}

export async function placeTestOrder(account: TestAccount, items: { productId: string; quantity: number; variantId?: string }[]): Promise<OrderRecord> {
  return ok<OrderRecord>(await placeOrder(account, { items, shippingAddress: { line1: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701", country: "us" } }), 201);
}

export function checkout(account: TestAccount, orderId: string): Promise<Response> {
  return call(checkoutRoute, apiRequest(`/api/v1/orders/${orderId}/checkout`, { method: "POST", headers: bearer(account.accessToken) }), { id: orderId });
}

let eventCounter = 0;
export function eventId(): string {
  eventCounter += 1;
  return `evt_test_${randomBytes(6).toString("hex")}${eventCounter}`;
}

/** A Stripe-shaped checkout.session.completed for an order (as the provider would send it). */
export function checkoutCompletedEvent(order: { id: string }, userId: string, extra: Record<string, unknown> = {}) {
  return {
    id: eventId(),
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: `cs_test_${order.id.slice(0, 8)}`,
        object: "checkout.session",
        mode: "payment",
        payment_status: "paid",
        customer: `cus_test_${userId.slice(0, 8)}`,
        payment_intent: `pi_test_${order.id.slice(0, 8)}`,
        metadata: { orderId: order.id, userId },
        ...extra,
      },
    },
  };
}

export function paymentIntentEvent(type: "payment_intent.succeeded" | "payment_intent.payment_failed", paymentIntentId: string, extra: Record<string, unknown> = {}) {
  return {
    id: eventId(),
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: paymentIntentId, object: "payment_intent", amount: 1000, currency: "usd", ...extra } },
  };
}

/** Pays an order the way the webhook's handler would (checkout.session.completed, run directly). */
export async function payOrder(order: { id: string }, userId: string): Promise<void> {
  await checkoutCompleted(systemContext(getDatabase().db), checkoutCompletedEvent(order, userId));
}

export async function productRow(productId: string) {
  const [row] = await getDatabase().db.select().from(schema.products).where(eq(schema.products.id, productId));
  return row!;
}

export async function orderRow(orderId: string) {
  const [row] = await getDatabase().db.select().from(schema.orders).where(eq(schema.orders.id, orderId));
  return row!;
}

export async function notificationsOf(userId: string) {
  return getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, userId));
}
