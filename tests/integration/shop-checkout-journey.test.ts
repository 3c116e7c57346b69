import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import type { RouteHandler } from "@/lib/http/route";
import { signPaymentPayload } from "@/lib/payments/signature";
import type { EventDelivery } from "@/lib/payments/test-provider";
import { apiRequest, call } from "../support/http";
import { registerAccount } from "../support/auth";
import { adminAccount, checkout, createTestProduct, ok, orderRow, placeTestOrder, productRow } from "../support/shop";
import { TEST_WEBHOOK_SECRET } from "../support/payments";

/**
 * The whole money path with nothing in between replaced: an order, its checkout at the built-in test
 * provider, Pay, the provider's signed events into our real webhook route, the stored events processed by
 * the real job handlers. (The provider's HTTP hop is the only part taken out: its deliveries call the
 * route handler with a real Request instead of going through a socket.)
 */
type Jobs = typeof import("@/lib/jobs");
let webhook: RouteHandler;
let jobs: Jobs;
let provider: typeof import("@/lib/payments/test-provider");
const answers: number[] = [];

beforeAll(async () => {
  vi.stubEnv("PAYMENT_WEBHOOK_SECRET", TEST_WEBHOOK_SECRET);
  vi.resetModules();
  webhook = (await import("@/app/api/v1/webhooks/payment/route")).POST;
  provider = await import("@/lib/payments/test-provider");
  jobs = await import("@/lib/jobs");
  await jobs.prepareJobs();
});

afterAll(async () => {
  await jobs?.stopJobs();
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** The provider's delivery into the route handler, recording each answer's status. */
const intoWebhook: EventDelivery = async (body, headers) => {
  const response = await call(webhook, apiRequest("/api/v1/webhooks/payment", { method: "POST", rawBody: body, headers, ip: "198.18.0.40" }));
  answers.push(response.status);
  if (!response.ok) throw new Error(`webhook answered ${response.status}`);
};

const processEvents = () => jobs.runPendingJobs({ name: "payments.process-event", ignoreStartAfter: false });

describe("buying a 5-pack through the test provider", () => {
  it("confirms the order, gives the buyer five tags ready to activate, takes the stock once, and a repeat changes nothing", async () => {
    const admin = await adminAccount();
    const pack = await createTestProduct(admin, { name: "Five QR tags", price: 39, tagPack: 5, stock: 20 });
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: pack.id, quantity: 1 }]);
    expect(await productRow(pack.id)).toMatchObject({ stock: 20, reserved: 1 });
    const { sessionId, checkoutUrl } = await ok<{ sessionId: string; checkoutUrl: string }>(await checkout(buyer, order.id));
    expect(checkoutUrl).toMatch(new RegExp(`/checkout/test/${sessionId}$`));

    const test = provider.createTestProvider({ deliver: intoWebhook, secret: TEST_WEBHOOK_SECRET });
    expect(await test.pay(sessionId)).toBe(true);
    expect(answers.splice(0)).toEqual([200, 200]);
    await processEvents();

    const paid = await orderRow(order.id);
    expect(paid).toMatchObject({ status: "CONFIRMED", paymentStatus: "COMPLETED" });
    const tags = await getDatabase().db.select().from(schema.tags).where(eq(schema.tags.ownerId, buyer.id));
    expect(tags).toHaveLength(5);
    expect(tags.every((tag) => tag.status === "PENDING_SETUP")).toBe(true);
    expect(await productRow(pack.id)).toMatchObject({ stock: 19, reserved: 0 });
    const events = await getDatabase().db.select().from(schema.paymentEvents);
    expect(events.filter((event) => event.payload && (event.payload as { data?: { object?: { id?: string } } }).data?.object?.id === sessionId)).toHaveLength(1);
    expect(events.every((event) => event.status === "PROCESSED")).toBe(true);

    // The provider delivers the same events again (a real one retries until it hears 200): acknowledged, no second effect.
    for (const event of events) {
      const body = JSON.stringify(event.payload);
      await intoWebhook(body, { "content-type": "application/json", "payment-signature": signPaymentPayload(body, TEST_WEBHOOK_SECRET) });
    }
    await processEvents();
    expect(await getDatabase().db.select().from(schema.tags).where(eq(schema.tags.ownerId, buyer.id))).toHaveLength(5);
    expect(await productRow(pack.id)).toMatchObject({ stock: 19, reserved: 0 });
    const orderNotices = await getDatabase()
      .db.select()
      .from(schema.notifications)
      .where(and(eq(schema.notifications.userId, buyer.id), eq(schema.notifications.type, "ORDER_UPDATED")));
    // "placed" when it was created, "confirmed" once paid: no second confirmation for the repeat.
    expect(orderNotices.map((notice) => notice.title.replace(/^Order \w+ /, ""))).toEqual(["placed", "confirmed"]);
  });

  it("a declined payment leaves the order pending with the provider's message, and the buyer is told once", async () => {
    const admin = await adminAccount();
    const tag = await createTestProduct(admin, { name: "One QR tag", price: 9.5, tagPack: 1, stock: 5 });
    const buyer = await registerAccount();
    const order = await placeTestOrder(buyer, [{ productId: tag.id, quantity: 2 }]);
    const { sessionId } = await ok<{ sessionId: string }>(await checkout(buyer, order.id));

    const test = provider.createTestProvider({ deliver: intoWebhook, secret: TEST_WEBHOOK_SECRET });
    expect(await test.decline(sessionId)).toBe(true);
    await processEvents();

    expect(await orderRow(order.id)).toMatchObject({ status: "PENDING", paymentStatus: "FAILED", paymentError: provider.DECLINE_MESSAGE });
    const failures = await getDatabase()
      .db.select()
      .from(schema.notifications)
      .where(and(eq(schema.notifications.userId, buyer.id), eq(schema.notifications.type, "PAYMENT_FAILED")));
    expect(failures).toHaveLength(1);
    expect(await getDatabase().db.select().from(schema.tags).where(eq(schema.tags.ownerId, buyer.id))).toHaveLength(0);

    // Paying after the decline completes the same session.
    expect(await test.pay(sessionId)).toBe(true);
    await processEvents();
    expect(await orderRow(order.id)).toMatchObject({ status: "CONFIRMED", paymentStatus: "COMPLETED" });
    expect(await getDatabase().db.select().from(schema.tags).where(eq(schema.tags.ownerId, buyer.id))).toHaveLength(2);
  });
});
