import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { POST as subscribeDefault } from "@/app/api/v1/notifications/subscribe/route";
import { GET as vapidKeyRoute } from "@/app/api/v1/notifications/vapid-public-key/route";
import type { RouteHandler } from "@/lib/http/route";
import { sendPush } from "@/lib/push/send";
import { pushEndpointsOfThisDevice, sessionsWithPush } from "@/lib/services/notifications/push";
import { POST as logoutRoute } from "@/app/api/v1/auth/logout/route";
import { bearer, loginAccount, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json } from "../support/http";
import { startPushService, type PushService, type TestSubscription } from "../support/push-service";

type Jobs = typeof import("@/lib/jobs");
type Notify = typeof import("@/lib/services/notifications/notify");
type Context = typeof import("@/lib/services/context");

// The routes and the push job as they run with PUSH_ALLOW_PRIVATE_ENDPOINTS=true (imported after the stub).
let subscribe: RouteHandler;
let unsubscribe: RouteHandler;
let jobs: Jobs;
let notify: Notify["notify"];
let systemContext: Context["systemContext"];
let service: PushService;

beforeAll(async () => {
  vi.stubEnv("PUSH_ALLOW_PRIVATE_ENDPOINTS", "true");
  vi.resetModules();
  subscribe = (await import("@/app/api/v1/notifications/subscribe/route")).POST;
  unsubscribe = (await import("@/app/api/v1/notifications/unsubscribe/route")).POST;
  jobs = await import("@/lib/jobs");
  ({ notify } = await import("@/lib/services/notifications/notify"));
  ({ systemContext } = await import("@/lib/services/context"));
  await jobs.prepareJobs();
  service = await startPushService();
});

afterAll(async () => {
  await service?.close();
  await jobs?.stopJobs();
  vi.unstubAllEnvs();
  vi.resetModules();
});

function subscribeAs(handler: RouteHandler, token: string, subscription: Pick<TestSubscription, "endpoint" | "keys">, userAgent = "PushTest/1.0") {
  return call(handler, apiRequest("/api/v1/notifications/subscribe", { method: "POST", body: { subscription: { endpoint: subscription.endpoint, keys: subscription.keys } }, headers: { ...bearer(token), "user-agent": userAgent } }));
}

function unsubscribeAs(token: string) {
  return call(unsubscribe, apiRequest("/api/v1/notifications/unsubscribe", { method: "POST", headers: bearer(token) }));
}

async function rowFor(endpoint: string) {
  const [row] = await getDatabase().db.select().from(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.endpoint, endpoint));
  return row;
}

const sessionIdOf = (accessToken: string) => (JSON.parse(Buffer.from(accessToken.split(".")[1]!, "base64url").toString()) as { sid: string }).sid;

async function secondDevice(account: TestAccount): Promise<string> {
  const response = await loginAccount(account.email, account.password, { userAgent: "SecondDevice/1.0" });
  expect(response.status).toBe(200);
  return (await json<{ data: { accessToken: string } }>(response)).data.accessToken;
}

async function vapidPublicKey(token: string): Promise<string> {
  const response = await call(vapidKeyRoute, apiRequest("/api/v1/notifications/vapid-public-key", { headers: bearer(token) }));
  expect(response.status).toBe(200);
  return (await json<{ data: { publicKey: string } }>(response)).data.publicKey;
}

describe("GET /api/v1/notifications/vapid-public-key", () => {
  it("answers the same P-256 public key every time, to signed-in callers", async () => {
    const account = await registerAccount();
    const first = await vapidPublicKey(account.accessToken);
    const point = Buffer.from(first, "base64url");
    expect(point.length).toBe(65);
    expect(point[0]).toBe(4);
    expect(await vapidPublicKey(account.accessToken)).toBe(first);
    const anonymous = await call(vapidKeyRoute, apiRequest("/api/v1/notifications/vapid-public-key"));
    expect(anonymous.status).toBe(401);
  });
});

describe("POST /api/v1/notifications/subscribe", () => {
  it("refuses http, loopback and private endpoints by default", async () => {
    const account = await registerAccount();
    const keys = service.createSubscription().keys;
    for (const endpoint of [
      service.createSubscription().endpoint, // http://127.0.0.1:port
      "https://127.0.0.1/push/x",
      "https://localhost/push/x",
      "https://10.0.0.1/push/x",
      "https://192.168.1.20/push/x",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/push/x",
      "https://[::ffff:10.0.0.1]/push/x",
      "https://user:pass@push.example.com/x",
      "ftp://push.example.com/x",
      "https://93.184.216.34:22/push/x", // a public host, but not the push port
      "https://push.example.com:8443/x",
    ]) {
      const response = await subscribeAs(subscribeDefault, account.accessToken, { endpoint, keys });
      expect(response.status, endpoint).toBe(400);
      const body = await json<{ success: boolean; error: { code: string; details: { fieldErrors: Record<string, string[]> } } }>(response);
      expect(body.error.code).toBe("VALIDATION_ERROR");
      expect(Object.keys(body.error.details.fieldErrors)).toEqual(["subscription.endpoint"]);
      expect(await rowFor(endpoint)).toBeUndefined();
    }
  });

  it("keeps a subscription whose host does not resolve right now (delivery resolves it again)", async () => {
    const account = await registerAccount();
    const endpoint = `https://push.invalid/send/${randomUUID()}`;
    const response = await subscribeAs(subscribeDefault, account.accessToken, { endpoint, keys: service.createSubscription().keys });
    expect(response.status).toBe(200);
    expect(await rowFor(endpoint)).toMatchObject({ userId: account.id });
  });

  it("keeps at most 10 devices per user, dropping the oldest", async () => {
    const account = await registerAccount();
    const devices = Array.from({ length: 12 }, () => service.createSubscription());
    for (const device of devices) expect((await subscribeAs(subscribe, account.accessToken, device)).status).toBe(200);
    const kept = await getDatabase().db.select().from(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.userId, account.id));
    expect(kept).toHaveLength(10);
    expect(new Set(kept.map((row) => row.endpoint))).toEqual(new Set(devices.slice(2).map((device) => device.endpoint)));
  });

  it("requires the whole subscription and a signed-in caller", async () => {
    const account = await registerAccount();
    const missingKeys = await call(subscribe, apiRequest("/api/v1/notifications/subscribe", { method: "POST", body: { subscription: { endpoint: service.createSubscription().endpoint } }, headers: bearer(account.accessToken) }));
    expect(missingKeys.status).toBe(400);
    const anonymous = await call(subscribe, apiRequest("/api/v1/notifications/subscribe", { method: "POST", body: { subscription: service.createSubscription() } }));
    expect(anonymous.status).toBe(401);
  });

  it("accepts a loopback http endpoint when PUSH_ALLOW_PRIVATE_ENDPOINTS is on, stores the device, and moves it on re-subscribe", async () => {
    const owner = await registerAccount();
    const other = await registerAccount();
    const subscription = service.createSubscription();
    const response = await subscribeAs(subscribe, owner.accessToken, subscription, "Browser/1");
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, data: { message: expect.any(String) } });
    const row = await rowFor(subscription.endpoint);
    expect(row).toMatchObject({ userId: owner.id, sessionId: sessionIdOf(owner.accessToken), p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, userAgent: "Browser/1", lastSuccessAt: null });

    // The same browser endpoint subscribed by someone else now belongs to them.
    expect((await subscribeAs(subscribe, other.accessToken, subscription, "Browser/2")).status).toBe(200);
    const moved = await getDatabase().db.select().from(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.endpoint, subscription.endpoint));
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({ userId: other.id, sessionId: sessionIdOf(other.accessToken), userAgent: "Browser/2" });
  });
});

describe("web push delivery (notifications.push job)", () => {
  it("delivers the notification VAPID-signed and encrypted to every device of the user", async () => {
    const account = await registerAccount();
    const publicKey = await vapidPublicKey(account.accessToken);
    const phone = service.createSubscription();
    const laptop = service.createSubscription();
    expect((await subscribeAs(subscribe, account.accessToken, phone)).status).toBe(200);
    expect((await subscribeAs(subscribe, await secondDevice(account), laptop)).status).toBe(200);

    const notification = await notify(systemContext(), { userId: account.id, type: "MESSAGE_RECEIVED", title: "New message", body: "Someone found your keys — “thank you!”" });
    const report = await jobs.runPendingJobs({ name: "notifications.push" });
    expect(report.failed).toBe(0);
    expect(service.rejected).toEqual([]);

    const expected = {
      id: notification.id,
      type: "MESSAGE_RECEIVED",
      title: "New message",
      body: "Someone found your keys — “thank you!”",
      url: `/dashboard/notifications/${notification.id}/open`,
      createdAt: notification.createdAt.toISOString(),
    };
    for (const device of [phone, laptop]) {
      const [push, ...more] = service.receivedBy(device.id);
      expect(more).toEqual([]);
      expect(push!.payload).toBe(JSON.stringify(expected));
      expect(JSON.parse(push!.payload)).toEqual(expected);
      expect(push!.vapid.publicKey).toBe(publicKey);
      expect(push!.vapid.claims.aud).toBe(service.origin);
      expect(push!.headers).toEqual({ ttl: String(24 * 60 * 60), urgency: "normal", contentEncoding: "aes128gcm" });
      expect((await rowFor(device.endpoint))!.lastSuccessAt).toBeInstanceOf(Date);
    }
  });

  it("sends urgent types with high urgency", async () => {
    const account = await registerAccount();
    const device = service.createSubscription();
    expect((await subscribeAs(subscribe, account.accessToken, device)).status).toBe(200);
    await notify(systemContext(), { userId: account.id, type: "EMERGENCY_ACCESSED", title: "Emergency info viewed", body: "Someone opened your emergency information." });
    expect((await jobs.runPendingJobs({ name: "notifications.push" })).failed).toBe(0);
    expect(service.receivedBy(device.id).map((push) => push.headers.urgency)).toEqual(["high"]);
  });

  it("removes a subscription whose endpoint answers 410 or 404, and keeps the others", async () => {
    const account = await registerAccount();
    const gone = service.createSubscription(410);
    const unknown = service.createSubscription(404);
    const live = service.createSubscription();
    for (const device of [gone, unknown, live]) expect((await subscribeAs(subscribe, account.accessToken, device)).status).toBe(200);

    await notify(systemContext(), { userId: account.id, type: "SECURITY", title: "New sign-in", body: "A new device signed in." });
    const report = await jobs.runPendingJobs({ name: "notifications.push" });
    expect(report.failed).toBe(0);
    expect(service.receivedBy(gone.id)).toHaveLength(1);
    expect(await rowFor(gone.endpoint)).toBeUndefined();
    expect(await rowFor(unknown.endpoint)).toBeUndefined();
    expect(await rowFor(live.endpoint)).toBeDefined();
  });

  it("fails the job for retry on other errors and never follows a redirect", async () => {
    const account = await registerAccount();
    const redirecting = service.createSubscription();
    const target = service.createSubscription();
    service.answer(redirecting.id, 307, target.endpoint);
    expect((await subscribeAs(subscribe, account.accessToken, redirecting)).status).toBe(200);

    await notify(systemContext(), { userId: account.id, type: "SECURITY", title: "Password changed", body: "Your password was changed." });
    const report = await jobs.runPendingJobs({ name: "notifications.push" });
    expect(report.runs.map((run) => run.status)).toEqual(["failed"]);
    expect(report.runs[0]!.error).toMatch(/307/);
    expect(service.hits).not.toContain(target.id);
    expect(await rowFor(redirecting.endpoint)).toBeDefined();
  });

  it("gives each of several devices its own job: only the one that failed is retried, the others get one copy", async () => {
    const account = await registerAccount();
    const healthy = service.createSubscription();
    const flaky = service.createSubscription(500);
    expect((await subscribeAs(subscribe, account.accessToken, healthy)).status).toBe(200);
    expect((await subscribeAs(subscribe, await secondDevice(account), flaky)).status).toBe(200);

    const notification = await notify(systemContext(), { userId: account.id, type: "SECURITY", title: "New sign-in", body: "A new device signed in." });
    const ours = (report: Awaited<ReturnType<Jobs["runPendingJobs"]>>) => report.runs.filter((run) => (run.data as { notificationId?: string }).notificationId === notification.id);
    const first = await jobs.runPendingJobs({ name: "notifications.push" });
    // The fan-out run, then one run per device: the healthy one completes, the failing one is up for retry.
    expect(ours(first).map((run) => run.status).sort()).toEqual(["completed", "completed", "failed"]);
    expect(ours(first).find((run) => run.status === "failed")!.error).toMatch(/500/);
    expect(await rowFor(flaky.endpoint)).toBeDefined();

    service.answer(flaky.id, 201);
    // Retries of other tests' jobs in this database may run here too; only this notification's count.
    const retry = await jobs.runPendingJobs({ name: "notifications.push", ignoreStartAfter: true });
    expect(ours(retry).map((run) => run.status)).toEqual(["completed"]);
    expect(service.receivedBy(healthy.id)).toHaveLength(1);
    // The push service saw the failed attempt and the retry.
    expect(service.receivedBy(flaky.id)).toHaveLength(2);
    expect((await rowFor(flaky.endpoint))!.lastSuccessAt).toBeInstanceOf(Date);
  });

  it("shows a lost pet's photo (a stored photo's path only) with LOST_PET_NEARBY", async () => {
    const account = await registerAccount();
    const device = service.createSubscription();
    expect((await subscribeAs(subscribe, account.accessToken, device)).status).toBe(200);
    const photoUrl = "/api/photos/5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11";
    const withPhoto = await notify(systemContext(), { userId: account.id, type: "LOST_PET_NEARBY", title: "Lost dog near you: Bella", body: "Bella …", data: { alertId: "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c12", photoUrl } });
    const elsewhere = await notify(systemContext(), { userId: account.id, type: "LOST_PET_NEARBY", title: "Lost cat near you", body: "…", data: { photoUrl: "https://evil.example/cat.jpg" } });
    expect((await jobs.runPendingJobs({ name: "notifications.push" })).failed).toBe(0);
    const payloads = service.receivedBy(device.id).map((push) => JSON.parse(push.payload) as { id: string; image?: string });
    expect(payloads.find((payload) => payload.id === withPhoto.id)!.image).toBe(photoUrl);
    expect(payloads.find((payload) => payload.id === elsewhere.id)).not.toHaveProperty("image");
  });
});

describe("devices that signed out", () => {
  it("stops pushing to a device whose sign-in was ended, and removes its subscription; an expired sign-in still gets pushes", async () => {
    const account = await registerAccount();
    const phoneToken = await secondDevice(account);
    const laptopToken = await secondDevice(account);
    const library = service.createSubscription();
    const phone = service.createSubscription();
    const laptop = service.createSubscription();
    expect((await subscribeAs(subscribe, account.accessToken, library)).status).toBe(200);
    expect((await subscribeAs(subscribe, phoneToken, phone)).status).toBe(200);
    expect((await subscribeAs(subscribe, laptopToken, laptop)).status).toBe(200);

    // Signed out on the shared computer; the laptop's sign-in simply ran out.
    expect((await call(logoutRoute, apiRequest("/api/v1/auth/logout", { method: "POST", headers: bearer(account.accessToken) }))).status).toBe(200);
    await getDatabase().db.update(schema.sessions).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(schema.sessions.id, sessionIdOf(laptopToken)));

    await notify(systemContext(), { userId: account.id, type: "TAG_SCANNED", title: "Your tag was scanned", body: "Someone scanned Rex's tag." });
    expect((await jobs.runPendingJobs({ name: "notifications.push" })).failed).toBe(0);
    expect(service.receivedBy(library.id)).toEqual([]);
    expect(await rowFor(library.endpoint)).toBeUndefined();
    expect(service.receivedBy(phone.id)).toHaveLength(1);
    expect(service.receivedBy(laptop.id)).toHaveLength(1);
  });

  it("tells the settings page which endpoints this sign-in has registered, and the sessions page which sign-ins have push", async () => {
    const account = await registerAccount();
    const otherToken = await secondDevice(account);
    const mine = service.createSubscription();
    const other = service.createSubscription();
    expect((await subscribeAs(subscribe, account.accessToken, mine)).status).toBe(200);
    expect((await subscribeAs(subscribe, otherToken, other)).status).toBe(200);
    const ctx = { actor: { kind: "user" as const, userId: account.id, role: "USER" as const, sessionId: sessionIdOf(account.accessToken), ip: "203.0.113.10" }, db: getDatabase().db };
    expect(await pushEndpointsOfThisDevice(ctx)).toEqual([mine.endpoint]);
    expect(await pushEndpointsOfThisDevice({ ...ctx, actor: { ...ctx.actor, sessionId: undefined } })).toEqual([]);
    // The sessions page marks both sign-ins as having push, and no one else's.
    const stranger = await registerAccount();
    expect((await subscribeAs(subscribe, stranger.accessToken, service.createSubscription())).status).toBe(200);
    expect(await sessionsWithPush(ctx)).toEqual(new Set([sessionIdOf(account.accessToken), sessionIdOf(otherToken)]));
  });
});

describe("sendPush and DNS rebinding", () => {
  const payload = JSON.stringify({ title: "Pinned", body: "to the checked address" });

  it("connects to the address the SSRF guard checked, without resolving the host again", async () => {
    const device = service.createSubscription();
    // `.invalid` never resolves (RFC 6761): the push can only arrive if the checked answer is reused.
    const endpoint = device.endpoint.replace("127.0.0.1", "push.invalid");
    const lookups: string[] = [];
    const outcome = await sendPush({ endpoint, keys: device.keys }, payload, {
      allowPrivate: true,
      lookup: async (hostname) => {
        lookups.push(hostname);
        return ["127.0.0.1"];
      },
    });
    expect(outcome).toEqual({ outcome: "delivered", status: 201 });
    expect(lookups).toEqual(["push.invalid"]);
    const [push] = service.receivedBy(device.id);
    expect(push!.payload).toBe(payload);
    expect(push!.vapid.claims.aud).toBe(new URL(endpoint).origin);
  });

  it("refuses a host whose answer is private, and never connects to it", async () => {
    const device = service.createSubscription();
    const endpoint = device.endpoint.replace(/^http:\/\/127\.0\.0\.1:\d+/, "https://push.example.com");
    const hitsBefore = service.hits.length;
    const outcome = await sendPush({ endpoint, keys: device.keys }, payload, { allowPrivate: false, lookup: async () => ["93.184.215.14", "127.0.0.1"] });
    expect(outcome).toEqual({ outcome: "gone", reason: "The push endpoint must be on a public host." });
    expect(service.hits.length).toBe(hitsBefore);
  });

  it("reports a push service that does not answer in time as a failure to retry", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const device = service.createSubscription();
      const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/push/${device.id}`;
      const outcome = await sendPush({ endpoint, keys: device.keys }, payload, { allowPrivate: true, timeoutMs: 200 });
      expect(outcome.outcome).toBe("failed");
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("POST /api/v1/notifications/unsubscribe", () => {
  it("removes the current device's subscription only, and nobody else's", async () => {
    const account = await registerAccount();
    const secondToken = await secondDevice(account);
    const stranger = await registerAccount();
    const first = service.createSubscription();
    const second = service.createSubscription();
    const strangers = service.createSubscription();
    expect((await subscribeAs(subscribe, account.accessToken, first)).status).toBe(200);
    expect((await subscribeAs(subscribe, secondToken, second)).status).toBe(200);
    expect((await subscribeAs(subscribe, stranger.accessToken, strangers)).status).toBe(200);

    // Another user unsubscribing removes only their own device.
    const byStranger = await unsubscribeAs(stranger.accessToken);
    expect(byStranger.status).toBe(200);
    expect(await rowFor(strangers.endpoint)).toBeUndefined();
    expect(await rowFor(first.endpoint)).toBeDefined();
    expect(await rowFor(second.endpoint)).toBeDefined();

    const response = await unsubscribeAs(account.accessToken);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, data: { message: expect.any(String) } });
    expect(await rowFor(first.endpoint)).toBeUndefined();
    expect(await rowFor(second.endpoint)).toBeDefined();

    // Nothing left for this device: still fine.
    expect((await unsubscribeAs(account.accessToken)).status).toBe(200);
    expect(await rowFor(second.endpoint)).toBeDefined();

    // By endpoint: only the caller's own subscription goes.
    const byEndpoint = (token: string, endpoint: string) =>
      call(unsubscribe, apiRequest("/api/v1/notifications/unsubscribe", { method: "POST", headers: bearer(token), body: { endpoint } }));
    expect((await byEndpoint(stranger.accessToken, second.endpoint)).status).toBe(200);
    expect(await rowFor(second.endpoint)).toBeDefined();
    expect((await byEndpoint(account.accessToken, second.endpoint)).status).toBe(200);
    expect(await rowFor(second.endpoint)).toBeUndefined();

    const anonymous = await call(unsubscribe, apiRequest("/api/v1/notifications/unsubscribe", { method: "POST" }));
    expect(anonymous.status).toBe(401);
  });
});
