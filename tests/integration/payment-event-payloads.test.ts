import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import type { RouteHandler } from "@/lib/http/route";
import { apiRequest, call } from "../support/http";
import { registerAccount } from "../support/auth";
import { eventId, signedHeaders, subscriptionEvent, TEST_WEBHOOK_SECRET } from "../support/payments";

/**
 * An event's payload is read through its type's schema (lib/services/payment-events/events.ts). What a
 * payload that does not fit does is what it always did: a subscription object that fails its schema fails
 * the event at once (no retry can fix it); an order event's field of the wrong kind counts as absent.
 */

type Jobs = typeof import("@/lib/jobs");

let webhook: RouteHandler;
let jobs: Jobs;

beforeAll(async () => {
  vi.stubEnv("PAYMENT_WEBHOOK_SECRET", TEST_WEBHOOK_SECRET);
  vi.resetModules();
  webhook = (await import("@/app/api/v1/webhooks/payment/route")).POST;
  jobs = await import("@/lib/jobs");
  await jobs.prepareJobs();
});

afterAll(async () => {
  await jobs?.stopJobs();
  vi.unstubAllEnvs();
  vi.resetModules();
});

const now = () => Math.floor(Date.now() / 1000);

async function deliver(event: unknown): Promise<void> {
  const body = JSON.stringify(event);
  const response = await call(webhook, apiRequest("/api/v1/webhooks/payment", { method: "POST", rawBody: body, headers: signedHeaders(body), ip: "198.18.0.21" }));
  expect(response.status).toBe(200);
}

async function processOnly(id: string) {
  const report = await jobs.runPendingJobs({ name: "payments.process-event", ignoreStartAfter: true });
  return report.runs.filter((run) => (run.data as { eventId: string }).eventId === id);
}

async function storedEvent(id: string) {
  const [row] = await getDatabase().db.select().from(schema.paymentEvents).where(eq(schema.paymentEvents.id, id));
  return row!;
}

describe("a payment event's payload read through its schema", () => {
  it("fails a subscription event whose object does not fit at once, naming the type and the problem, and changes nothing", async () => {
    const account = await registerAccount();
    const e = subscriptionEvent("created", { subscriptionId: `sub_bad_${account.id.slice(0, 8)}`, userId: account.id, created: now() });
    const malformed = { ...e, data: { object: { ...e.data.object, status: 7 } } };
    await deliver(malformed);

    const runs = await processOnly(e.id);
    expect(runs).toHaveLength(1); // one attempt: no retry
    expect(runs[0]!.status).toBe("completed");
    const stored = await storedEvent(e.id);
    expect(stored).toMatchObject({ status: "FAILED", attempts: 1 });
    expect(stored.lastError).toBe("PermanentEventError: customer.subscription.created: Invalid input: expected string, received number");
    const [user] = await getDatabase().db.select().from(schema.users).where(eq(schema.users.id, account.id));
    expect(user!.subscription).toBe("FREE");
    expect(await getDatabase().db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, account.id))).toHaveLength(0);
    expect(await getDatabase().db.select().from(schema.paymentCustomers).where(eq(schema.paymentCustomers.userId, account.id))).toHaveLength(0);
  });

  it("fails a subscription event without the subscription's id the same way", async () => {
    const account = await registerAccount();
    const e = subscriptionEvent("updated", { subscriptionId: "sub_unused", userId: account.id, created: now() });
    const object: Record<string, unknown> = { ...e.data.object };
    delete object.id;
    await deliver({ ...e, data: { object } });

    expect(await processOnly(e.id)).toHaveLength(1);
    const stored = await storedEvent(e.id);
    expect(stored).toMatchObject({ status: "FAILED", attempts: 1 });
    expect(stored.lastError).toMatch(/^PermanentEventError: customer\.subscription\.updated: /);
  });

  it("reads an order event's fields of the wrong kind as absent: the event is processed and changes nothing", async () => {
    for (const [type, object] of [
      ["checkout.session.completed", { id: 5, mode: 7, payment_status: ["paid"], customer: { id: "cus_x" }, payment_intent: null, metadata: "nope" }],
      ["payment_intent.succeeded", { id: { nested: true }, metadata: ["orderId"], customer: 3 }],
      ["payment_intent.payment_failed", { id: "pi_nobody_knows", last_payment_error: "declined", metadata: { orderId: "not-a-uuid" } }],
    ] as const) {
      const e = { id: eventId(), type, created: now(), data: { object } };
      await deliver(e);
      expect(await processOnly(e.id)).toHaveLength(1);
      expect(await storedEvent(e.id), type).toMatchObject({ status: "PROCESSED", attempts: 1, lastError: null });
    }
  });
});
