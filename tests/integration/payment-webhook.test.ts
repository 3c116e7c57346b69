import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import type { RouteHandler } from "@/lib/http/route";
import { signPaymentPayload } from "@/lib/payments/signature";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { bearer, registerAccount, setRole } from "../support/auth";
import { giveTestTag, setTier, tagEventsOf, tagRow } from "../support/tags";
import { eventId, processingJobsFor, signedHeaders, subscriptionEvent, TEST_WEBHOOK_SECRET, TEST_WEBHOOK_SECRET_PREVIOUS } from "../support/payments";

type Jobs = typeof import("@/lib/jobs");

// The routes as they run with a current and a previous webhook secret (imported after the stub).
let webhook: RouteHandler;
let webhookAlias: RouteHandler;
let adminList: RouteHandler;
let adminReplay: RouteHandler;
let jobs: Jobs;

beforeAll(async () => {
  vi.stubEnv("PAYMENT_WEBHOOK_SECRET", TEST_WEBHOOK_SECRET);
  vi.stubEnv("PAYMENT_WEBHOOK_SECRET_PREVIOUS", TEST_WEBHOOK_SECRET_PREVIOUS);
  vi.resetModules();
  webhook = (await import("@/app/api/v1/webhooks/payment/route")).POST;
  webhookAlias = (await import("@/app/webhooks/payment/route")).POST;
  adminList = (await import("@/app/api/v1/admin/payment-events/route")).GET;
  adminReplay = (await import("@/app/api/v1/admin/payment-events/[id]/replay/route")).POST;
  jobs = await import("@/lib/jobs");
  await jobs.prepareJobs();
});

afterAll(async () => {
  await jobs?.stopJobs();
  vi.unstubAllEnvs();
  vi.resetModules();
});

const now = () => Math.floor(Date.now() / 1000);

function deliver(event: unknown, options: { headers?: Record<string, string>; raw?: string; path?: "v1" | "alias" } = {}): Promise<Response> {
  const body = options.raw ?? JSON.stringify(event);
  const headers = options.headers ?? signedHeaders(body);
  const alias = options.path === "alias";
  const request = apiRequest(alias ? "/webhooks/payment" : "/api/v1/webhooks/payment", { method: "POST", rawBody: body, headers, ip: "198.18.0.9" });
  return call(alias ? webhookAlias : webhook, request);
}

async function storedEvent(id: string) {
  const [row] = await getDatabase().db.select().from(schema.paymentEvents).where(eq(schema.paymentEvents.id, id));
  return row;
}

const runEvents = (options: { ignoreStartAfter?: boolean } = {}) => jobs.runPendingJobs({ name: "payments.process-event", ignoreStartAfter: options.ignoreStartAfter ?? false });

async function userRow(id: string) {
  const [row] = await getDatabase().db.select().from(schema.users).where(eq(schema.users.id, id));
  return row!;
}

async function subscriptionOf(userId: string) {
  const [row] = await getDatabase().db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId));
  return row;
}

async function subscriptionNotices(userId: string) {
  return getDatabase()
    .db.select()
    .from(schema.notifications)
    .where(and(eq(schema.notifications.userId, userId), eq(schema.notifications.type, "SUBSCRIPTION_UPDATED")))
    .orderBy(schema.notifications.createdAt);
}

async function linkCustomer(userId: string, customer: string) {
  await getDatabase().db.insert(schema.paymentCustomers).values({ userId, providerCustomerId: customer });
}

describe("payment webhook signature", () => {
  const event = () => ({ id: eventId(), type: "test.unhandled", created: now(), data: { object: { id: "obj_1" } } });

  async function expectRefused(response: Response, field = "Payment-Signature") {
    expect(response.status).toBe(400);
    const body = await json<{ success: boolean; error: { code: string; details: { fieldErrors: Record<string, string[]> } } }>(response);
    expect(body.success).toBe(false);
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(body.error.details.fieldErrors)).toContain(field);
    expect(response.headers.get("x-request-id")).toBeTruthy();
  }

  it("refuses a missing, malformed, wrongly keyed, tampered or stale signature, storing nothing", async () => {
    const e = event();
    const body = JSON.stringify(e);
    const cases: Record<string, Record<string, string>> = {
      missing: { "content-type": "application/json" },
      malformed: { "content-type": "application/json", "payment-signature": "v1=abc,t=notanumber" },
      "wrong secret": signedHeaders(body, "whsec_somebody_else_0000"),
      stale: signedHeaders(body, TEST_WEBHOOK_SECRET, now() - 301),
      "from the future": signedHeaders(body, TEST_WEBHOOK_SECRET, now() + 301),
    };
    for (const [label, headers] of Object.entries(cases)) {
      const response = await deliver(e, { headers });
      await expectRefused(response);
      expect(label).toBeTruthy();
    }
    // Signed for one body, sent with another.
    await expectRefused(await deliver(e, { raw: body.replace("obj_1", "obj_2"), headers: signedHeaders(body) }));
    expect(await storedEvent(e.id)).toBeUndefined();
    expect(await processingJobsFor(e.id)).toEqual([]);
  });

  it("accepts a header with several v1 values of which one is valid, and the previous secret during a rotation", async () => {
    const first = event();
    const body = JSON.stringify(first);
    const t = now();
    const valid = signPaymentPayload(body, TEST_WEBHOOK_SECRET, t).split(",v1=")[1]!;
    const header = `t=${t},v1=${"0".repeat(64)},v1=${valid},v0=ignored`;
    const response = await deliver(first, { headers: { "content-type": "application/json", "payment-signature": header } });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, data: { received: true, duplicate: false } });

    const second = event();
    const rotated = await deliver(second, { headers: signedHeaders(JSON.stringify(second), TEST_WEBHOOK_SECRET_PREVIOUS) });
    expect(rotated.status).toBe(200);
    expect(await storedEvent(second.id)).toMatchObject({ id: second.id, type: "test.unhandled", status: "RECEIVED" });
  });

  it("refuses a signed body that is not an event, and a body over 1 MB with 413", async () => {
    for (const raw of ["not json", "[]", JSON.stringify({ id: 5, type: "x", data: { object: {} } }), JSON.stringify({ id: "evt_1", type: "x" }), JSON.stringify({ id: "evt 1", type: "x", data: { object: {} } })]) {
      const response = await deliver(null, { raw, headers: signedHeaders(raw) });
      expect(response.status, raw).toBe(400);
      expect((await json<{ error: { code: string } }>(response)).error.code).toBe("VALIDATION_ERROR");
    }
    const big = JSON.stringify({ id: eventId(), type: "x", data: { object: { pad: "y".repeat(1024 * 1024) } } });
    const response = await deliver(null, { raw: big, headers: signedHeaders(big) });
    expect(response.status).toBe(413);
    expect((await json<{ error: { code: string } }>(response)).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("stores a signed event holding lone surrogates (\\ud800 escapes) with U+FFFD in their place, answering 200", async () => {
    // Refusing would make the provider retry the same signed bytes forever; jsonb cannot store them as sent.
    const id = eventId();
    const raw = `{"id":"${id}","type":"test.unhandled","created":${now()},"data":{"object":{"id":"x","name":"a\\ud800b","tail":"\\udc00","k\\ud800":["\\udbff"]}}}`;
    const response = await deliver(null, { raw, headers: signedHeaders(raw) });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, data: { received: true, duplicate: false } });
    expect((await storedEvent(id))!.payload).toMatchObject({ data: { object: { id: "x", name: "a\ufffdb", tail: "\ufffd", "k\ufffd": ["\ufffd"] } } });
  });

  it("takes no credential and carries the rate-limit headers of its own per-IP policy", async () => {
    const e = event();
    const body = JSON.stringify(e);
    const response = await deliver(e, { headers: { ...signedHeaders(body), authorization: "Bearer not-a-token" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-ratelimit-limit")).toBe("6000");
  });
});

describe("payment webhook inbox", () => {
  it("stores a repeat delivery once, with one job, acknowledging the repeat as a duplicate (also on /webhooks/payment)", async () => {
    const e = { id: eventId(), type: "test.unhandled", created: now(), data: { object: { id: "x" } } };
    const first = await deliver(e);
    expect(await json(first)).toEqual({ success: true, data: { received: true, duplicate: false } });
    const again = await deliver(e, { path: "alias" });
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual({ success: true, data: { received: true, duplicate: true } });
    expect(await processingJobsFor(e.id)).toHaveLength(1);

    await runEvents();
    expect(await storedEvent(e.id)).toMatchObject({ status: "IGNORED", attempts: 1 });
    expect((await storedEvent(e.id))!.processedAt).toBeInstanceOf(Date);
  });

  it("ten simultaneous deliveries of one subscription event: one row, one job, one effect", async () => {
    const account = await registerAccount();
    const customer = `cus_${account.id.slice(0, 8)}`;
    const e = subscriptionEvent("created", { subscriptionId: `sub_${account.id.slice(0, 8)}`, customer, userId: account.id, created: now() });
    const body = JSON.stringify(e);
    const responses = await Promise.all(Array.from({ length: 10 }, () => deliver(e, { raw: body, headers: signedHeaders(body) })));
    const receipts = await Promise.all(responses.map((response) => json<{ data: { duplicate: boolean } }>(response)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect(receipts.filter((receipt) => !receipt.data.duplicate)).toHaveLength(1);
    expect(await processingJobsFor(e.id)).toHaveLength(1);

    await runEvents();
    expect(await storedEvent(e.id)).toMatchObject({ status: "PROCESSED", attempts: 1 });
    expect((await userRow(account.id)).subscription).toBe("PRO");
    expect(await subscriptionOf(account.id)).toMatchObject({ tier: "PRO", status: "ACTIVE", providerSubscriptionId: e.data.object.id });
    const [link] = await getDatabase().db.select().from(schema.paymentCustomers).where(eq(schema.paymentCustomers.userId, account.id));
    expect(link?.providerCustomerId).toBe(customer);
    const notices = await subscriptionNotices(account.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.title).toBe("Your Pro plan is active");

    // Ten runs of the processing at once (a replay racing a retry, say): still one effect.
    const { processPaymentEvent } = await import("@/lib/services/payment-events");
    const { systemContext } = await import("@/lib/services/context");
    const rerun = subscriptionEvent("updated", { subscriptionId: e.data.object.id, customer, created: e.created + 5, cancelAtPeriodEnd: true });
    await deliver(rerun);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => processPaymentEvent(systemContext(), { eventId: rerun.id, attemptLimit: 11 })));
    expect(outcomes.filter((outcome) => outcome === "processed")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "skipped")).toHaveLength(9);
    expect(await subscriptionNotices(account.id)).toHaveLength(2);
    await runEvents(); // its queued job finds it processed and does nothing
    expect(await subscriptionNotices(account.id)).toHaveLength(2);
    expect(await subscriptionOf(account.id)).toMatchObject({ cancelAtPeriodEnd: true });

    // The same news in another event (the provider sends created and updated together): no new notice.
    const sameNews = subscriptionEvent("updated", { subscriptionId: e.data.object.id, customer, created: e.created + 5, cancelAtPeriodEnd: true });
    await deliver(sameNews);
    await runEvents();
    expect(await storedEvent(sameNews.id)).toMatchObject({ status: "PROCESSED" });
    expect(await subscriptionNotices(account.id)).toHaveLength(2);
  });

  it("retries a failed event with backoff and applies it once the user can be found", async () => {
    const account = await registerAccount();
    const customer = `cus_late_${account.id.slice(0, 8)}`;
    // The subscription event arrives before the checkout event that links the customer.
    const e = subscriptionEvent("created", { subscriptionId: `sub_late_${account.id.slice(0, 8)}`, customer, created: now() });
    await deliver(e);
    const first = await runEvents();
    expect(first.failed).toBe(1);
    expect(await storedEvent(e.id)).toMatchObject({ status: "RECEIVED", attempts: 1, lastError: expect.stringContaining("No user for subscription") });
    const [job] = await processingJobsFor(e.id);
    expect(job?.state).toBe("retry");
    // Backoff: the retry is not due at once.
    expect((await runEvents()).runs).toHaveLength(0);

    await linkCustomer(account.id, customer);
    const second = await runEvents({ ignoreStartAfter: true });
    expect(second.completed).toBe(1);
    expect(await storedEvent(e.id)).toMatchObject({ status: "PROCESSED", attempts: 2, lastError: null });
    expect((await userRow(account.id)).subscription).toBe("PRO");
  });

  it("marks an event FAILED when its retries run out; an admin lists it and replays it; a processed one is 409", async () => {
    const admin = await registerAccount();
    await setRole(admin.id, "ADMIN");
    const owner = await registerAccount();
    const customer = `cus_never_${owner.id.slice(0, 8)}`;
    const e = subscriptionEvent("created", { subscriptionId: `sub_never_${owner.id.slice(0, 8)}`, customer, created: now() });
    await deliver(e);
    const report = await runEvents({ ignoreStartAfter: true });
    expect(report.failed).toBe(11); // the first attempt and 10 retries
    expect(await storedEvent(e.id)).toMatchObject({ status: "FAILED", attempts: 11 });
    expect((await processingJobsFor(e.id)).map((job) => job.state)).toEqual(["failed"]);

    const list = async (query: string, headers: Record<string, string> = bearer(admin.accessToken)) =>
      call(adminList, apiRequest(`/api/v1/admin/payment-events${query}`, { headers, ip: nextTestIp() }));
    const listed = await list("?status=FAILED&page=1&limit=100");
    expect(listed.status).toBe(200);
    const page = await json<{ data: { id: string; status: string; attempts: number; lastError: string; payload: { type: string } }[]; meta: { total: number } }>(listed);
    expect(page.data.map((item) => item.id)).toContain(e.id);
    expect(page.data.every((item) => item.status === "FAILED")).toBe(true);
    expect(page.data.find((item) => item.id === e.id)).toMatchObject({ attempts: 11, lastError: expect.stringContaining("No user"), payload: { type: "customer.subscription.created" } });
    expect((await list("")).status).toBe(200);
    expect((await list("?status=NOPE")).status).toBe(400);
    expect((await list("", bearer(owner.accessToken))).status).toBe(403);
    expect((await list("", {})).status).toBe(401);

    const replay = (id: string, headers: Record<string, string> = bearer(admin.accessToken)) =>
      call(adminReplay, apiRequest(`/api/v1/admin/payment-events/${id}/replay`, { method: "POST", headers, ip: nextTestIp() }), { id });
    expect((await replay(e.id, bearer(owner.accessToken))).status).toBe(403);
    expect((await replay(e.id, {})).status).toBe(401);
    expect((await replay("evt_unknown")).status).toBe(404);
    expect((await replay("not an id!")).status).toBe(404);

    await linkCustomer(owner.id, customer);
    const replayed = await replay(e.id);
    expect(replayed.status).toBe(202);
    expect((await json<{ data: { status: string } }>(replayed)).data.status).toBe("RECEIVED");
    // Replaying a RECEIVED event (its job lost, say) adds a job; the two together still apply it once.
    expect((await replay(e.id)).status).toBe(202);
    expect(await processingJobsFor(e.id)).toHaveLength(3);
    const noticesBefore = (await subscriptionNotices(owner.id)).length;
    const outcome = await runEvents();
    expect(outcome.completed).toBe(2);
    expect(await storedEvent(e.id)).toMatchObject({ status: "PROCESSED", lastError: null });
    expect(await subscriptionNotices(owner.id)).toHaveLength(noticesBefore + 1);
    expect((await userRow(owner.id)).subscription).toBe("PRO");
    const again = await replay(e.id);
    expect(again.status).toBe(409);
    expect((await json<{ error: { code: string } }>(again)).error.code).toBe("CONFLICT");
  });

  it("fails an event no retry can fix (no tier on the price) at once", async () => {
    const account = await registerAccount();
    const e = subscriptionEvent("created", { subscriptionId: `sub_notier_${account.id.slice(0, 8)}`, userId: account.id, tier: null, created: now() });
    await deliver(e);
    const report = await runEvents({ ignoreStartAfter: true });
    expect(report.runs.filter((run) => (run.data as { eventId: string }).eventId === e.id)).toHaveLength(1);
    expect(await storedEvent(e.id)).toMatchObject({ status: "FAILED", attempts: 1, lastError: expect.stringContaining("no PRO or PREMIUM price") });
    expect((await userRow(account.id)).subscription).toBe("FREE");
  });

  it("survives a process that stops between the acknowledgement and the processing: the job row is durable", async () => {
    await jobs.stopJobs();
    const account = await registerAccount();
    const e = subscriptionEvent("created", { subscriptionId: `sub_restart_${account.id.slice(0, 8)}`, userId: account.id, created: now() });
    expect((await deliver(e)).status).toBe(200);
    // Nothing is running: the event waits, stored with its job.
    expect(await storedEvent(e.id)).toMatchObject({ status: "RECEIVED", attempts: 0 });
    expect((await processingJobsFor(e.id)).map((job) => job.state)).toEqual(["created"]);

    // A new process starts its workers: the waiting job runs without anyone delivering again.
    await jobs.startJobs();
    try {
      const deadline = Date.now() + 15_000;
      while ((await storedEvent(e.id))?.status !== "PROCESSED" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await storedEvent(e.id)).toMatchObject({ status: "PROCESSED", attempts: 1 });
      expect((await userRow(account.id)).subscription).toBe("PRO");
    } finally {
      await jobs.stopJobs();
    }
  });
});

describe("subscription events", () => {
  it("converge when delivered out of order: updated(t2) then created(t1) ends at t2's state", async () => {
    const account = await registerAccount();
    const subscriptionId = `sub_order_${account.id.slice(0, 8)}`;
    const t1 = now() - 60;
    const t2 = now() - 30;
    const updated = subscriptionEvent("updated", { subscriptionId, userId: account.id, created: t2, cancelAtPeriodEnd: true, periodEnd: t2 + 1000 });
    const created = subscriptionEvent("created", { subscriptionId, userId: account.id, created: t1, periodEnd: t1 + 500 });
    await deliver(updated);
    await runEvents();
    await deliver(created);
    await runEvents();
    expect(await storedEvent(created.id)).toMatchObject({ status: "PROCESSED" });
    const row = await subscriptionOf(account.id);
    expect(row).toMatchObject({ status: "ACTIVE", tier: "PRO", cancelAtPeriodEnd: true });
    expect(row!.providerUpdatedAt!.getTime()).toBe(t2 * 1000);
    expect(row!.currentPeriodEnd!.getTime()).toBe((t2 + 1000) * 1000);
    expect((await userRow(account.id)).subscription).toBe("PRO");

    // past_due keeps the tier (the provider is retrying the card); a later deletion ends it, and nothing older revives it.
    const pastDue = subscriptionEvent("updated", { subscriptionId, userId: account.id, created: t2 + 10, status: "past_due" });
    await deliver(pastDue);
    await runEvents();
    expect(await subscriptionOf(account.id)).toMatchObject({ status: "PAST_DUE" });
    expect((await userRow(account.id)).subscription).toBe("PRO");
    const deleted = subscriptionEvent("deleted", { subscriptionId, userId: account.id, created: t2 + 20 });
    await deliver(deleted);
    await runEvents();
    const late = subscriptionEvent("updated", { subscriptionId, userId: account.id, created: t2 + 20 });
    await deliver(late);
    await runEvents();
    expect(await subscriptionOf(account.id)).toMatchObject({ status: "CANCELED" });
    expect((await userRow(account.id)).subscription).toBe("FREE");
  });

  it("deleted: the user returns to FREE and the most recently activated tags beyond 5 expire, named in the notice", async () => {
    const account = await registerAccount();
    await setTier(account.id, "PRO");
    const subscriptionId = `sub_end_${account.id.slice(0, 8)}`;
    const customer = `cus_end_${account.id.slice(0, 8)}`;
    await linkCustomer(account.id, customer);
    const start = now() - 3600;
    await deliver(subscriptionEvent("created", { subscriptionId, customer, created: start }));
    await runEvents();

    const db = getDatabase().db;
    const tags = [];
    const base = Date.now() - 10 * 86_400_000;
    const statuses = ["ACTIVE", "LOST", "ACTIVE", "FOUND", "ACTIVE", "STOLEN", "ACTIVE", "ACTIVE"] as const;
    for (const [index, status] of statuses.entries()) {
      const tag = await giveTestTag(account.id, { itemName: `Item ${index + 1}`, status });
      await db.update(schema.tags).set({ activatedAt: new Date(base + index * 86_400_000) }).where(eq(schema.tags.id, tag.id));
      tags.push(tag);
    }
    const deactivated = await giveTestTag(account.id, { itemName: "Old", status: "DEACTIVATED" });
    const pending = await giveTestTag(account.id, { itemName: null }); // claimed, never activated: counts as the most recent

    const noticesBefore = (await subscriptionNotices(account.id)).length;
    const deleted = subscriptionEvent("deleted", { subscriptionId, customer, created: start + 60 });
    await deliver(deleted);
    await runEvents();
    expect(await storedEvent(deleted.id)).toMatchObject({ status: "PROCESSED" });
    expect((await userRow(account.id)).subscription).toBe("FREE");
    expect(await subscriptionOf(account.id)).toMatchObject({ status: "CANCELED" });

    // 9 counted tags (8 + the pending one), FREE allows 5: the pending one and items 6, 7, 8 expire.
    const statusesAfter = await Promise.all(tags.map(async (tag) => (await tagRow(tag.id))!.status));
    expect(statusesAfter).toEqual(["ACTIVE", "LOST", "ACTIVE", "FOUND", "ACTIVE", "EXPIRED", "EXPIRED", "EXPIRED"]);
    expect((await tagRow(pending.id))!.status).toBe("EXPIRED");
    expect((await tagRow(deactivated.id))!.status).toBe("DEACTIVATED");
    const [event] = await tagEventsOf(tags[5]!.id);
    expect(event).toMatchObject({ fromStatus: "STOLEN", toStatus: "EXPIRED", actorKind: "system", actorUserId: null, reason: expect.stringContaining("subscription ended") });

    const notices = await subscriptionNotices(account.id);
    expect(notices).toHaveLength(noticesBefore + 1);
    const notice = notices.at(-1)!;
    expect(notice.title).toBe("Your Pro plan has ended");
    for (const name of ["Item 6", "Item 7", "Item 8"]) expect(notice.body).toContain(name);
    expect(notice.body).not.toContain("Item 5");
    expect((notice.data as { expiredTags: unknown[] }).expiredTags).toHaveLength(4);
    // Its e-mail is queued with it (SUBSCRIPTION_UPDATED always mails).
    const emailJobs: unknown = await db.execute(sql`select count(*)::int as n from pgboss.job where name = 'notifications.email' and data->>'notificationId' = ${notice.id}`);
    expect((Array.isArray(emailJobs) ? emailJobs : (emailJobs as { rows: { n: number }[] }).rows)[0]).toMatchObject({ n: 1 });

    // The same end again (another event id): nothing more changes, no second notice.
    await deliver(subscriptionEvent("deleted", { subscriptionId, customer, created: start + 90 }));
    await runEvents();
    expect(await subscriptionNotices(account.id)).toHaveLength(noticesBefore + 1);
    expect((await tagRow(tags[4]!.id))!.status).toBe("ACTIVE");
  });
});
