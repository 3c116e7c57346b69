import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { JOBS_SCHEMA, prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { systemContext } from "@/lib/services/context";
import { alertsFanOutJob } from "@/lib/jobs/handlers/alerts-fan-out";
import { DELETE as deleteAreaRoute, GET as getAreaRoute, PUT as putAreaRoute } from "@/app/api/v1/alerts/area/route";
import { GET as nearbyRoute } from "@/app/api/v1/alerts/nearby/route";
import { POST as raiseRoute } from "@/app/api/v1/tags/[id]/lost-alert/route";
import { GET as tagAlertsRoute } from "@/app/api/v1/tags/[id]/lost-alerts/route";
import { PATCH as statusRoute } from "@/app/api/v1/tags/[id]/status/route";
import { GET as publicRoute } from "@/app/api/v1/lost/[alertId]/route";
import { POST as contactRoute } from "@/app/api/v1/lost/[alertId]/contact/route";
import { POST as sightingRoute } from "@/app/api/v1/lost/[alertId]/sightings/route";
import { GET as exportRoute } from "@/app/api/v1/auth/me/export/route";
import { GET as preferencesRoute, PUT as putPreferencesRoute } from "@/app/api/v1/notifications/preferences/route";
import { listMailbox } from "@/lib/email/mailbox";
import { notifyAlertRecipients } from "@/lib/services/alerts";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, awayFromWindowEdge, call, json, nextTestIp } from "../support/http";
import { HOUR_MS } from "@/lib/ratelimit/policies";
import { contactRequest, ownerThread, threadRowByToken } from "../support/messages";
import { giveTestTag, tagRow } from "../support/tags";

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  await stopJobs();
});

const db = () => getDatabase().db;
const MISSING_ID = "00000000-0000-4000-8000-000000000000";
/** The sphere earthdistance measures on: metres per degree of latitude (earth() = 6378168 m). */
const M_PER_DEG = (6378168 * Math.PI) / 180;

type ErrorBody = { success: false; error: { code: string; message: string; details?: { fieldErrors?: Record<string, string[]> } } };

/** A watcher created straight in the database (no password hashing), with an area at a point already on the ~100 m grid. */
async function watcher(latitude: number, longitude: number, radiusKm: number, species: "DOG" | "CAT" | "BIRD" | "RABBIT" | "OTHER" | null = null): Promise<string> {
  const [user] = await db()
    .insert(schema.users)
    .values({ email: `watcher-${randomUUID()}@example.com`, passwordHash: "x", firstName: "W", lastName: "Atcher" })
    .returning({ id: schema.users.id });
  await db().insert(schema.alertAreas).values({ userId: user!.id, latitude, longitude, radiusKm, species });
  return user!.id;
}

/** An owner with a LOST pet tag and its profile. */
async function lostPet(options: { owner?: TestAccount; species?: string; petName?: string; breed?: string | null; color?: string | null; status?: "LOST" | "ACTIVE" | "FOUND"; tagType?: "PET" | "DEVICE" } = {}) {
  const owner = options.owner ?? (await registerAccount());
  const tag = await giveTestTag(owner.id, { tagType: options.tagType ?? "PET", status: options.status ?? "LOST", itemName: options.petName ?? "Bella" });
  if ((options.tagType ?? "PET") === "PET") {
    await db()
      .insert(schema.petProfiles)
      .values({ tagId: tag.id, petName: options.petName ?? "Bella", species: options.species ?? "Dog", breed: options.breed === undefined ? "Labrador" : options.breed, color: options.color === undefined ? "brown" : options.color });
  }
  return { owner, tag };
}

function raise(account: TestAccount, tagId: string, body: unknown): Promise<Response> {
  return call(raiseRoute, apiRequest(`/api/v1/tags/${tagId}/lost-alert`, { method: "POST", headers: bearer(account.accessToken), body, ip: nextTestIp() }), { id: tagId });
}

async function raised(account: TestAccount, tagId: string, body: unknown): Promise<{ alertId: string; recipients: number; url: string }> {
  const response = await raise(account, tagId, body);
  if (response.status !== 201) throw new Error(`raise failed: ${response.status} ${await response.text()}`);
  return (await json<{ data: { alertId: string; recipients: number; url: string } }>(response)).data;
}

async function recipientsOf(alertId: string): Promise<{ userId: string; distanceM: number; notificationId: string | null }[]> {
  return db()
    .select({ userId: schema.lostPetAlertRecipients.userId, distanceM: schema.lostPetAlertRecipients.distanceM, notificationId: schema.lostPetAlertRecipients.notificationId })
    .from(schema.lostPetAlertRecipients)
    .where(eq(schema.lostPetAlertRecipients.alertId, alertId));
}

function lostPetNotificationsOf(userId: string) {
  return db()
    .select()
    .from(schema.notifications)
    .where(and(eq(schema.notifications.userId, userId), eq(schema.notifications.type, "LOST_PET_NEARBY")));
}

async function deliveryJobs(notificationId: string): Promise<string[]> {
  const result: unknown = await db().execute(
    sql`select name from ${sql.raw(JOBS_SCHEMA)}.job where data->>'notificationId' = ${notificationId}
        union all
        select name from ${sql.raw(JOBS_SCHEMA)}.archive where data->>'notificationId' = ${notificationId}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { name: string }[];
  return rows.map((row) => row.name).sort();
}

// Each test works around its own point, far from the others', so their watchers never meet.
let nextCentre = 0;
function centre(): { latitude: number; longitude: number } {
  nextCentre += 1;
  return { latitude: 40 + nextCentre * 0.5, longitude: -100 + nextCentre * 0.5 };
}

describe("POST /api/v1/tags/{id}/lost-alert: who is reached", () => {
  it("reaches a watcher just inside their own radius, not one just outside it nor one just outside the alert's radius", async () => {
    const { owner, tag } = await lostPet();
    const c = centre();
    // Watchers due north on the grid: k thousandths of a degree are k × 111.32 m along the meridian.
    const at = (k: number) => Number((c.latitude + k * 0.001).toFixed(3));
    const insideOwn = await watcher(at(18), c.longitude, 2.005); // 2003.8 m, radius 2005 m
    const outsideOwn = await watcher(at(18), c.longitude, 2.002); // 2003.8 m, radius 2002 m
    const insideAlert = await watcher(at(44), c.longitude, 50); // 4898.1 m, alert radius 5 km
    const outsideAlert = await watcher(at(45), c.longitude, 50); // 5009.4 m, alert radius 5 km
    const { alertId, recipients, url } = await raised(owner, tag.id, { latitude: c.latitude, longitude: c.longitude });
    expect(url).toBe(`/lost/${alertId}`);
    const rows = await recipientsOf(alertId);
    expect(rows.map((row) => row.userId).sort()).toEqual([insideOwn, insideAlert].sort());
    expect(recipients).toBe(2);
    expect(rows.find((row) => row.userId === insideOwn)!.distanceM).toBe(Math.round(18 * 0.001 * M_PER_DEG));
    for (const other of [outsideOwn, outsideAlert]) expect(rows.some((row) => row.userId === other)).toBe(false);
  });
});

/** A registered watcher (for the endpoints that need their credential), with an area set through PUT /alerts/area. */
async function registeredWatcher(body: Record<string, unknown>): Promise<TestAccount> {
  const account = await registerAccount();
  const response = await putArea(account, body);
  if (response.status !== 200) throw new Error(`put area failed: ${response.status} ${await response.text()}`);
  return account;
}

function putArea(account: TestAccount, body: unknown): Promise<Response> {
  return call(putAreaRoute, apiRequest("/api/v1/alerts/area", { method: "PUT", headers: bearer(account.accessToken), body }));
}

function publicView(alertId: string): Promise<Response> {
  return call(publicRoute, apiRequest(`/api/v1/lost/${alertId}`, { ip: nextTestIp() }), { alertId });
}

async function publicData(alertId: string) {
  const response = await publicView(alertId);
  if (response.status !== 200) throw new Error(`public view failed: ${response.status} ${await response.text()}`);
  return (await json<{ data: Record<string, unknown> & { status: string; lastSeen: { latitude: number; longitude: number; at: string }; contactEnabled: boolean } }>(response)).data;
}

function contact(alertId: string, body: unknown, headers: Record<string, string> = {}, ip = nextTestIp()): Promise<Response> {
  return call(contactRoute, apiRequest(`/api/v1/lost/${alertId}/contact`, { method: "POST", body, headers, ip }), { alertId });
}

function sighting(alertId: string, body: unknown, headers: Record<string, string> = {}, ip = nextTestIp()): Promise<Response> {
  return call(sightingRoute, apiRequest(`/api/v1/lost/${alertId}/sightings`, { method: "POST", body, headers, ip }), { alertId });
}

function nearby(account: TestAccount, query = ""): Promise<Response> {
  return call(nearbyRoute, apiRequest(`/api/v1/alerts/nearby${query}`, { headers: bearer(account.accessToken) }));
}

function tagAlerts(account: TestAccount, tagId: string): Promise<Response> {
  return call(tagAlertsRoute, apiRequest(`/api/v1/tags/${tagId}/lost-alerts`, { headers: bearer(account.accessToken) }), { id: tagId });
}

async function expectError(response: Response, status: number, code: string): Promise<ErrorBody> {
  const body = await json<ErrorBody>(response);
  expect({ status: response.status, success: body.success, code: body.error?.code }).toEqual({ status, success: false, code });
  return body;
}

async function runFanOut(alertId: string) {
  await alertsFanOutJob.handler({ alertId }, { id: randomUUID(), name: "alerts.fan-out", ctx: systemContext(db()) });
}

describe("who an alert reaches", () => {
  it("matches the species, and an area without one takes every species", async () => {
    const { owner, tag } = await lostPet({ species: "Katze", breed: null, color: "black" });
    const c = centre();
    const cats = await watcher(c.latitude, c.longitude, 5, "CAT");
    const dogs = await watcher(c.latitude, c.longitude, 5, "DOG");
    const all = await watcher(c.latitude, c.longitude, 5, null);
    const { alertId, recipients } = await raised(owner, tag.id, c);
    expect(recipients).toBe(2);
    const rows = await recipientsOf(alertId);
    expect(rows.map((row) => row.userId).sort()).toEqual([cats, all].sort());
    expect(rows.some((row) => row.userId === dogs)).toBe(false);
    expect((await publicData(alertId)).species).toBe("CAT");
  });

  it("never reaches the owner, anyone the owner blocked, anyone who blocked the owner, or a suspended account", async () => {
    const owner = await registerAccount();
    const c = centre();
    await db().insert(schema.alertAreas).values({ userId: owner.id, latitude: c.latitude, longitude: c.longitude, radiusKm: 5 });
    const blockedByOwner = await watcher(c.latitude, c.longitude, 5);
    const blockerOfOwner = await watcher(c.latitude, c.longitude, 5);
    const suspended = await watcher(c.latitude, c.longitude, 5);
    const reached = await watcher(c.latitude, c.longitude, 5);
    await db()
      .insert(schema.userBlocks)
      .values([
        { blockerId: owner.id, blockedId: blockedByOwner },
        { blockerId: blockerOfOwner, blockedId: owner.id },
      ]);
    await db().update(schema.users).set({ suspendedAt: new Date() }).where(eq(schema.users.id, suspended));
    const { tag } = await lostPet({ owner });
    const { alertId, recipients } = await raised(owner, tag.id, c);
    expect(recipients).toBe(1);
    expect((await recipientsOf(alertId)).map((row) => row.userId)).toEqual([reached]);
    await runFanOut(alertId);
    for (const userId of [owner.id, blockedByOwner, blockerOfOwner, suspended]) expect(await lostPetNotificationsOf(userId)).toHaveLength(0);
    expect(await lostPetNotificationsOf(reached)).toHaveLength(1);
  });

  it("answers 0 recipients and enqueues nothing when no one watches the place", async () => {
    const { owner, tag } = await lostPet();
    const { alertId, recipients } = await raised(owner, tag.id, centre());
    expect(recipients).toBe(0);
    const result: unknown = await db().execute(sql`select count(*)::int as n from ${sql.raw(JOBS_SCHEMA)}.job where name = 'alerts.fan-out' and data->>'alertId' = ${alertId}`);
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
    expect(rows[0]!.n).toBe(0);
  });
});

describe("POST /api/v1/tags/{id}/lost-alert: refusals", () => {
  it("allows 3 alerts per tag in 24 hours: of 10 at once, exactly 3 are created and 7 answer 429 with Retry-After", async () => {
    const { owner, tag } = await lostPet();
    const c = centre();
    const responses = await Promise.all(Array.from({ length: 10 }, () => raise(owner, tag.id, c)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429, 429, 429, 429, 429]);
    for (const response of responses.filter((r) => r.status === 429)) {
      await expectError(response, 429, "RATE_LIMIT_EXCEEDED");
      const retryAfter = Number(response.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThan(23 * 3600);
      expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    }
    const stored = await db().select().from(schema.lostPetAlerts).where(eq(schema.lostPetAlerts.tagId, tag.id));
    expect(stored).toHaveLength(3);
    const list = await json<{ data: { alerts: unknown[]; remainingToday: number; nextAllowedAt: string | null } }>(await tagAlerts(owner, tag.id));
    expect(list.data.alerts).toHaveLength(3);
    expect(list.data.remainingToday).toBe(0);
    expect(Date.parse(list.data.nextAllowedAt!)).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });

  it("counts the last 24 hours only: alerts older than that free their slot", async () => {
    const { owner, tag } = await lostPet();
    const c = centre();
    for (let i = 0; i < 3; i++) await raised(owner, tag.id, c);
    await expectError(await raise(owner, tag.id, c), 429, "RATE_LIMIT_EXCEEDED");
    await db()
      .update(schema.lostPetAlerts)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(schema.lostPetAlerts.tagId, tag.id));
    expect((await raise(owner, tag.id, c)).status).toBe(201);
    const list = await json<{ data: { remainingToday: number } }>(await tagAlerts(owner, tag.id));
    expect(list.data.remainingToday).toBe(2);
  });

  it("409 for a tag that is not a PET tag or not LOST", async () => {
    const device = await lostPet({ tagType: "DEVICE" });
    await expectError(await raise(device.owner, device.tag.id, centre()), 409, "CONFLICT");
    const active = await lostPet({ status: "ACTIVE" });
    await expectError(await raise(active.owner, active.tag.id, centre()), 409, "CONFLICT");
    const found = await lostPet({ status: "FOUND" });
    await expectError(await raise(found.owner, found.tag.id, centre()), 409, "CONFLICT");
  });

  it("404 for someone else's tag and an unknown one, 401 without a credential", async () => {
    const { tag } = await lostPet();
    const stranger = await registerAccount();
    await expectError(await raise(stranger, tag.id, centre()), 404, "NOT_FOUND");
    await expectError(await raise(stranger, MISSING_ID, centre()), 404, "NOT_FOUND");
    await expectError(await call(tagAlertsRoute, apiRequest(`/api/v1/tags/${tag.id}/lost-alerts`, { headers: bearer(stranger.accessToken) }), { id: tag.id }), 404, "NOT_FOUND");
    const anonymous = await call(raiseRoute, apiRequest(`/api/v1/tags/${tag.id}/lost-alert`, { method: "POST", body: centre(), ip: nextTestIp() }), { id: tag.id });
    await expectError(anonymous, 401, "UNAUTHORIZED");
    expect(await db().select().from(schema.lostPetAlerts).where(eq(schema.lostPetAlerts.tagId, tag.id))).toHaveLength(0);
  });

  it("400 in the envelope for bad input, naming the field", async () => {
    const { owner, tag } = await lostPet();
    const c = centre();
    const cases: [unknown, string][] = [
      [{ ...c, latitude: 91 }, "latitude"],
      [{ ...c, longitude: -181 }, "longitude"],
      [{ ...c, latitude: "52.5" }, "latitude"],
      [{ longitude: c.longitude }, "latitude"],
      [{ ...c, radiusKm: 0 }, "radiusKm"],
      [{ ...c, radiusKm: 21 }, "radiusKm"],
      [{ ...c, lastSeenAt: new Date(Date.now() + 3600_000).toISOString() }, "lastSeenAt"],
      [{ ...c, lastSeenAt: new Date(Date.now() - 31 * 86_400_000).toISOString() }, "lastSeenAt"],
      [{ ...c, lastSeenAt: "yesterday" }, "lastSeenAt"],
      [{ ...c, note: "x".repeat(501) }, "note"],
      [{ ...c, note: "Ran off\u0000 towards the park" }, "note"],
    ];
    for (const [body, field] of cases) {
      const error = await expectError(await raise(owner, tag.id, body), 400, "VALIDATION_ERROR");
      expect(Object.keys(error.error.details?.fieldErrors ?? {}), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    expect(await db().select().from(schema.lostPetAlerts).where(eq(schema.lostPetAlerts.tagId, tag.id))).toHaveLength(0);
  });
});

describe("the alerts.fan-out job", () => {
  it("notifies every recipient exactly once, however often it runs, with e-mail and push jobs by their preferences", async () => {
    const { owner, tag } = await lostPet();
    const c = centre();
    const watchers = await Promise.all(Array.from({ length: 7 }, (_, i) => watcher(Number((c.latitude + i * 0.001).toFixed(3)), c.longitude, 5)));
    const pushOnly = await registeredWatcher({ ...c, radiusKm: 5 });
    expect((await call(putPreferencesRoute, apiRequest("/api/v1/notifications/preferences", { method: "PUT", headers: bearer(pushOnly.accessToken), body: { email: { lostPetNearby: false } } }))).status).toBe(200);
    const nothing = await registeredWatcher({ ...c, radiusKm: 5 });
    await call(putPreferencesRoute, apiRequest("/api/v1/notifications/preferences", { method: "PUT", headers: bearer(nothing.accessToken), body: { email: { lostPetNearby: false }, push: { lostPetNearby: false } } }));
    const prefs = await json<{ data: { email: { lostPetNearby: boolean }; push: { lostPetNearby: boolean } } }>(await call(preferencesRoute, apiRequest("/api/v1/notifications/preferences", { headers: bearer(nothing.accessToken) })));
    expect([prefs.data.email.lostPetNearby, prefs.data.push.lostPetNearby]).toEqual([false, false]);

    const { alertId, recipients } = await raised(owner, tag.id, c);
    expect(recipients).toBe(9);
    // Small batches, two runs at once, then the queued job and a rerun: still one notification each.
    await Promise.all([notifyAlertRecipients(systemContext(db()), alertId, { batchSize: 2 }), notifyAlertRecipients(systemContext(db()), alertId, { batchSize: 3 })]);
    const report = await runPendingJobs({ name: "alerts.fan-out" });
    expect(report.failed).toBe(0);
    await runFanOut(alertId);

    for (const userId of [...watchers, pushOnly.id, nothing.id]) {
      const notifications = await lostPetNotificationsOf(userId);
      expect(notifications, userId).toHaveLength(1);
    }
    const rows = await recipientsOf(alertId);
    expect(rows.every((row) => row.notificationId !== null)).toBe(true);
    const byUser = new Map(rows.map((row) => [row.userId, row.notificationId!]));
    expect(await deliveryJobs(byUser.get(watchers[0]!)!)).toEqual(["notifications.email", "notifications.push"]);
    expect(await deliveryJobs(byUser.get(pushOnly.id)!)).toEqual(["notifications.push"]);
    expect(await deliveryJobs(byUser.get(nothing.id)!)).toEqual([]);
    const list = await json<{ data: { alerts: { recipients: number; notified: number }[] } }>(await tagAlerts(owner, tag.id));
    expect(list.data.alerts[0]).toMatchObject({ recipients: 9, notified: 9 });
  });

  it("says how far from home, in rounded words, with the pet's name, description, photo and time; never the tag", async () => {
    const { owner, tag } = await lostPet();
    const [photo] = await db()
      .insert(schema.tagPhotos)
      .values({ tagId: tag.id, contentType: "image/jpeg", data: Buffer.from([0xff, 0xd8, 0xff]), byteSize: 3, width: 1, height: 1, isPrimary: true })
      .returning({ id: schema.tagPhotos.id });
    const c = centre();
    const near = await registeredWatcher({ latitude: Number((c.latitude + 0.011).toFixed(3)), longitude: c.longitude, radiusKm: 3 });
    const lastSeenAt = new Date(Date.now() - 20 * 60_000 - 5_000).toISOString();
    const { alertId } = await raised(owner, tag.id, { ...c, lastSeenAt });
    await runFanOut(alertId);
    const [notification] = await lostPetNotificationsOf(near.id);
    expect(notification!.title).toBe("Lost dog near you: Bella");
    // 11 thousandths of a degree north: 1224.5 m.
    expect(notification!.body).toBe("Bella, a brown Labrador (dog), was last seen about 1.2 km from your home, 20 minutes ago.");
    expect(notification!.data).toEqual({
      alertId,
      petName: "Bella",
      species: "DOG",
      breed: "Labrador",
      color: "brown",
      photoUrl: `/api/photos/${photo!.id}`,
      distanceM: Math.round(11 * 0.001 * M_PER_DEG),
      lastSeenAt: new Date(lastSeenAt).toISOString(),
    });
    expect(JSON.stringify(notification)).not.toContain(tag.id);

    // The e-mail shows the photo and leads to the alert's page through the notification.
    await runPendingJobs({ name: "notifications.email" });
    const [mail] = await listMailbox({ to: near.email });
    expect(mail!.subject).toBe("Lost dog near you: Bella");
    expect(mail!.html).toContain(`/api/photos/${photo!.id}`);
    expect(mail!.html).toContain(`/dashboard/notifications/${notification!.id}/open`);
  });

  it("holds a watcher's e-mail and push until their quiet hours end (the live notification is at once)", async () => {
    const { owner, tag } = await lostPet();
    const c = centre();
    const sleeper = await registeredWatcher({ ...c, radiusKm: 5 });
    const hhmm = (date: Date) => date.toISOString().slice(11, 16);
    const quietHours = { start: hhmm(new Date(Date.now() - 3600_000)), end: hhmm(new Date(Date.now() + 2 * 3600_000)), timeZone: "UTC" };
    expect((await call(putPreferencesRoute, apiRequest("/api/v1/notifications/preferences", { method: "PUT", headers: bearer(sleeper.accessToken), body: { quietHours } }))).status).toBe(200);
    const { alertId } = await raised(owner, tag.id, c);
    await runFanOut(alertId);
    const [notification] = await lostPetNotificationsOf(sleeper.id);
    const result: unknown = await db().execute(sql`select name, start_after from ${sql.raw(JOBS_SCHEMA)}.job where data->>'notificationId' = ${notification!.id} order by name`);
    const jobs = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { name: string; start_after: string | Date }[];
    expect(jobs.map((job) => job.name)).toEqual(["notifications.email", "notifications.push"]);
    for (const job of jobs) expect(new Date(job.start_after).getTime()).toBeGreaterThan(Date.now() + 3600_000);
  });

  it("leaves out a recipient suspended or blocked either way between the alert and its notification", async () => {
    const { owner, tag } = await lostPet();
    const c = centre();
    const [suspended, blockedByOwner, blockerOfOwner, still] = await Promise.all([1, 2, 3, 4].map(() => watcher(c.latitude, c.longitude, 5)));
    const { alertId, recipients } = await raised(owner, tag.id, c);
    expect(recipients).toBe(4);
    await db().update(schema.users).set({ suspendedAt: new Date() }).where(eq(schema.users.id, suspended!));
    await db()
      .insert(schema.userBlocks)
      .values([
        { blockerId: owner.id, blockedId: blockedByOwner! },
        { blockerId: blockerOfOwner!, blockedId: owner.id },
      ]);
    await runFanOut(alertId);
    for (const userId of [suspended!, blockedByOwner!, blockerOfOwner!]) expect(await lostPetNotificationsOf(userId)).toHaveLength(0);
    expect(await lostPetNotificationsOf(still!)).toHaveLength(1);
  });

  it("notifies no one more once the alert is closed", async () => {
    const { owner, tag } = await lostPet();
    const c = centre();
    const watcherId = await watcher(c.latitude, c.longitude, 5);
    const { alertId, recipients } = await raised(owner, tag.id, c);
    expect(recipients).toBe(1);
    await db().update(schema.tags).set({ status: "FOUND" }).where(eq(schema.tags.id, tag.id));
    await runFanOut(alertId);
    expect(await lostPetNotificationsOf(watcherId)).toHaveLength(0);
  });
});

describe("the public lost page and its contact", () => {
  it("shows the pet and the area, never the owner or the precise place", async () => {
    const owner = await registerAccount({ firstName: "Henrietta", lastName: "Quixotic" });
    await db().insert(schema.tagProfiles).values({ tagId: (await giveTestTag(owner.id)).id, ownerName: "unused" }).catch(() => undefined);
    const { tag } = await lostPet({ owner });
    await db().insert(schema.tagProfiles).values({ tagId: tag.id, ownerName: "Henrietta Quixotic", contactEmail: "henrietta@example.com", contactPhone: "+49 30 1234567" });
    const place = { latitude: 52.51234, longitude: 13.40876 };
    await db().insert(schema.alertAreas).values({ userId: owner.id, latitude: 52.601, longitude: 13.301, radiusKm: 5 });
    const { alertId } = await raised(owner, tag.id, { ...place, note: "Shy, do not chase her." });
    const data = await publicData(alertId);
    expect(data).toMatchObject({
      id: alertId,
      status: "OPEN",
      petName: "Bella",
      species: "DOG",
      breed: "Labrador",
      color: "brown",
      note: "Shy, do not chase her.",
      reward: null,
      relay: null,
      contactEnabled: true,
      photos: [],
    });
    expect(data.lastSeen.latitude).toBe(52.51);
    expect(data.lastSeen.longitude).toBe(13.41);
    const text = JSON.stringify(data);
    for (const secret of ["Henrietta", "Quixotic", owner.email, "henrietta@example.com", "1234567", tag.id, tag.encryptedId, "52.512", "13.408", "52.601", "13.301", owner.id]) {
      expect(text, secret).not.toContain(secret);
    }
  });

  it("404 for an unknown, malformed or removed alert", async () => {
    await expectError(await publicView(MISSING_ID), 404, "NOT_FOUND");
    await expectError(await call(publicRoute, apiRequest("/api/v1/lost/not-a-uuid", { ip: nextTestIp() }), { alertId: "not-a-uuid" }), 404, "NOT_FOUND");
    const { owner, tag } = await lostPet();
    const { alertId } = await raised(owner, tag.id, centre());
    await db().update(schema.lostPetAlerts).set({ removedAt: new Date() }).where(eq(schema.lostPetAlerts.id, alertId));
    await expectError(await publicView(alertId), 404, "NOT_FOUND");
    await expectError(await contact(alertId, { message: "I saw her" }), 404, "NOT_FOUND");
    await expectError(await sighting(alertId, { latitude: 1, longitude: 1 }), 404, "NOT_FOUND");
  });

  it("closes when the tag is marked FOUND: the page says HOME, contact and sightings 403, the watcher's list drops it", async () => {
    const { owner, tag } = await lostPet();
    const c = centre();
    const near = await registeredWatcher({ ...c, radiusKm: 5 });
    const { alertId } = await raised(owner, tag.id, c);
    const listed = await json<{ data: { alertId: string; distanceText: string; url: string; petName: string }[]; meta: { total: number } }>(await nearby(near));
    expect(listed.data).toEqual([expect.objectContaining({ alertId, petName: "Bella", distanceText: "about 100 m", url: `/lost/${alertId}` })]);

    const changed = await call(statusRoute, apiRequest(`/api/v1/tags/${tag.id}/status`, { method: "PATCH", headers: bearer(owner.accessToken), body: { status: "FOUND" } }), { id: tag.id });
    expect(changed.status).toBe(200);
    const data = await publicData(alertId);
    expect(data).toMatchObject({ status: "HOME", contactEnabled: false, reward: null, relay: null, petName: "Bella" });
    await expectError(await contact(alertId, { message: "I saw her" }), 403, "FORBIDDEN");
    await expectError(await sighting(alertId, { latitude: c.latitude, longitude: c.longitude }), 403, "FORBIDDEN");
    const after = await json<{ data: unknown[]; meta: { total: number } }>(await nearby(near));
    expect(after.data).toEqual([]);
    expect(after.meta.total).toBe(0);
    const list = await json<{ data: { alerts: { status: string; closedAt: string | null }[] } }>(await tagAlerts(owner, tag.id));
    expect(list.data.alerts[0]!.status).toBe("HOME");
    expect(list.data.alerts[0]!.closedAt).not.toBeNull();
    // Back to LOST does not reopen it; a new alert is needed.
    await db().update(schema.tags).set({ status: "LOST" }).where(eq(schema.tags.id, tag.id));
    expect((await publicData(alertId)).status).toBe("HOME");
  });

  it("is CLOSED, not HOME, when the tag left LOST otherwise (stolen)", async () => {
    const { owner, tag } = await lostPet();
    const { alertId } = await raised(owner, tag.id, centre());
    await db().update(schema.tags).set({ status: "STOLEN" }).where(eq(schema.tags.id, tag.id));
    expect((await publicData(alertId)).status).toBe("CLOSED");
  });

  it("contact opens an anonymous conversation with the owner, as the finder page's does; the owner themself 403", async () => {
    const { owner, tag } = await lostPet();
    const { alertId } = await raised(owner, tag.id, centre());
    const response = await contact(alertId, { message: "I think I saw Bella at the bakery", finderName: "Sam" });
    expect(response.status).toBe(201);
    const { data } = await json<{ data: { threadToken: string; threadUrl: string; message: string } }>(response);
    const thread = (await threadRowByToken(data.threadToken))!;
    expect(thread.tagId).toBe(tag.id);
    const seen = await ownerThread(owner, thread.id);
    expect(seen.messages.map((message) => message.content)).toEqual(["I think I saw Bella at the bakery"]);
    await expectError(await contact(alertId, { message: "me" }, bearer(owner.accessToken)), 403, "FORBIDDEN");
    await expectError(await contact(alertId, { message: "" }), 400, "VALIDATION_ERROR");
    await expectError(await contact(alertId, { message: "hi\u0000there" }), 400, "VALIDATION_ERROR");
  });

  it("a sighting opens the conversation with the place as a location message the owner sees", async () => {
    const { owner, tag } = await lostPet();
    const { alertId } = await raised(owner, tag.id, centre());
    const place = { latitude: 48.85837, longitude: 2.294481, accuracy: 12.5 };
    const response = await sighting(alertId, place);
    expect(response.status).toBe(201);
    const { data } = await json<{ data: { threadToken: string; threadUrl: string } }>(response);
    const thread = (await threadRowByToken(data.threadToken))!;
    const seen = await ownerThread(owner, thread.id);
    expect(seen.messages.map((message) => [message.content, message.location])).toEqual([
      ["I've seen this pet.", null],
      ["Location shared (within 13 m).", place],
    ]);
    const withWords = await sighting(alertId, { latitude: 48.86, longitude: 2.29, message: "By the river, heading north" });
    const other = (await threadRowByToken((await json<{ data: { threadToken: string } }>(withWords)).data.threadToken))!;
    expect((await ownerThread(owner, other.id)).messages[0]!.content).toBe("By the river, heading north");
    await expectError(await sighting(alertId, { latitude: 95, longitude: 2 }), 400, "VALIDATION_ERROR");
    // A refused sighting leaves nothing behind: contact and location are one transaction.
    const threads = await db().select().from(schema.threads).where(eq(schema.threads.tagId, tag.id));
    expect(threads).toHaveLength(2);
  });
});

describe("the lost page's limits", () => {
  it("share the finder page's contact budget: 10 new conversations an hour from one IP, through either door", async () => {
    await awayFromWindowEdge(HOUR_MS, 20_000);
    const { owner, tag } = await lostPet();
    const { alertId } = await raised(owner, tag.id, centre());
    const ip = nextTestIp();
    for (let i = 0; i < 5; i++) expect((await contact(alertId, { message: `Seen her ${i}` }, {}, ip)).status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await sighting(alertId, { latitude: 1, longitude: 1 }, {}, ip)).status).toBe(201);
    await expectError(await contact(alertId, { message: "again" }, {}, ip), 429, "RATE_LIMIT_EXCEEDED");
    await expectError(await sighting(alertId, { latitude: 1, longitude: 1 }, {}, ip), 429, "RATE_LIMIT_EXCEEDED");
    await expectError(await contactRequest(tag.encryptedId, { message: "and here" }, { ip }), 429, "RATE_LIMIT_EXCEEDED");
    expect(await db().select().from(schema.threads).where(eq(schema.threads.tagId, tag.id))).toHaveLength(10);
  });
});

describe("watch areas: /api/v1/alerts/area", () => {
  it("stores the point rounded to ~100 m, replaces it, reads it and deletes it", async () => {
    const account = await registerAccount();
    await expectError(await call(getAreaRoute, apiRequest("/api/v1/alerts/area", { headers: bearer(account.accessToken) })), 404, "NOT_FOUND");
    await expectError(await call(deleteAreaRoute, apiRequest("/api/v1/alerts/area", { method: "DELETE", headers: bearer(account.accessToken) })), 404, "NOT_FOUND");
    const first = await putArea(account, { latitude: 52.520349, longitude: 13.404954, radiusKm: 2.5 });
    expect(first.status).toBe(200);
    expect((await json<{ data: unknown }>(first)).data).toEqual({ latitude: 52.52, longitude: 13.405, radiusKm: 2.5, species: null, updatedAt: expect.any(String) });
    const second = await putArea(account, { latitude: -33.86785, longitude: 151.20732, radiusKm: 50, species: "CAT" });
    expect((await json<{ data: unknown }>(second)).data).toMatchObject({ latitude: -33.868, longitude: 151.207, radiusKm: 50, species: "CAT" });
    const rows = await db().select().from(schema.alertAreas).where(eq(schema.alertAreas.userId, account.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ latitude: -33.868, longitude: 151.207 });
    const read = await call(getAreaRoute, apiRequest("/api/v1/alerts/area", { headers: bearer(account.accessToken) }));
    expect((await json<{ data: unknown }>(read)).data).toMatchObject({ latitude: -33.868, species: "CAT" });
    const deleted = await call(deleteAreaRoute, apiRequest("/api/v1/alerts/area", { method: "DELETE", headers: bearer(account.accessToken) }));
    expect(deleted.status).toBe(200);
    expect(typeof (await json<{ data: { message: string } }>(deleted)).data.message).toBe("string");
    await expectError(await call(getAreaRoute, apiRequest("/api/v1/alerts/area", { headers: bearer(account.accessToken) })), 404, "NOT_FOUND");
  });

  it("400 for a radius of 0 or 51, a latitude of 91, a non-number, an unknown species or NUL bytes; 401 without a credential", async () => {
    const account = await registerAccount();
    const base = { latitude: 52.52, longitude: 13.4, radiusKm: 3 };
    const cases: [unknown, string][] = [
      [{ ...base, radiusKm: 0 }, "radiusKm"],
      [{ ...base, radiusKm: 51 }, "radiusKm"],
      [{ ...base, radiusKm: 0.5 }, "radiusKm"],
      [{ ...base, latitude: 91 }, "latitude"],
      [{ ...base, longitude: 180.5 }, "longitude"],
      [{ ...base, latitude: "north" }, "latitude"],
      [{ ...base, radiusKm: null }, "radiusKm"],
      [{ ...base, species: "DRAGON" }, "species"],
      [{ ...base, species: "DOG\u0000" }, "species"],
    ];
    for (const [body, field] of cases) {
      const error = await expectError(await putArea(account, body), 400, "VALIDATION_ERROR");
      expect(Object.keys(error.error.details?.fieldErrors ?? {}), JSON.stringify(body)).toContain(field);
    }
    expect(await db().select().from(schema.alertAreas).where(eq(schema.alertAreas.userId, account.id))).toHaveLength(0);
    await expectError(await call(putAreaRoute, apiRequest("/api/v1/alerts/area", { method: "PUT", body: base })), 401, "UNAUTHORIZED");
    await expectError(await call(nearbyRoute, apiRequest("/api/v1/alerts/nearby")), 401, "UNAUTHORIZED");
  });
});

describe("GET /api/v1/alerts/nearby and GET /api/v1/tags/{id}/lost-alerts", () => {
  it("lists the watcher's open alerts newest first, paginated; the owner's list has the precise place", async () => {
    const c = centre();
    const near = await registeredWatcher({ ...c, radiusKm: 10 });
    const first = await lostPet({ petName: "Bella" });
    const second = await lostPet({ petName: "Milo", species: "cat", breed: null, color: null });
    const a = await raised(first.owner, first.tag.id, { latitude: c.latitude + 0.02, longitude: c.longitude });
    const b = await raised(second.owner, second.tag.id, c);
    const page = await json<{ data: { alertId: string; petName: string; species: string; distanceText: string; photoUrl: string | null; breed: string | null }[]; meta: { total: number } }>(await nearby(near, "?limit=1"));
    expect(page.meta.total).toBe(2);
    expect(page.data).toEqual([expect.objectContaining({ alertId: b.alertId, petName: "Milo", species: "CAT", breed: null, photoUrl: null, distanceText: "about 100 m" })]);
    const next = await json<{ data: { alertId: string; distanceText: string }[] }>(await nearby(near, "?limit=1&page=2"));
    expect(next.data).toEqual([expect.objectContaining({ alertId: a.alertId, distanceText: "about 2.2 km" })]);
    await expectError(await nearby(near, "?limit=0"), 400, "VALIDATION_ERROR");

    const owners = await json<{ data: { alerts: Record<string, unknown>[]; remainingToday: number; nextAllowedAt: null } }>(await tagAlerts(first.owner, first.tag.id));
    expect(owners.data.remainingToday).toBe(2);
    expect(owners.data.nextAllowedAt).toBeNull();
    expect(owners.data.alerts).toEqual([
      expect.objectContaining({ id: a.alertId, status: "OPEN", removed: false, latitude: c.latitude + 0.02, longitude: c.longitude, radiusKm: 5, recipients: 1, notified: 0, url: `/lost/${a.alertId}`, closedAt: null }),
    ]);
    expect((await tagRow(first.tag.id))!.status).toBe("LOST");

    // A tag that left the owner who raised the alert (still LOST with its new owner): the alert is gone for everyone.
    const newOwner = await registerAccount();
    await db().update(schema.tags).set({ ownerId: newOwner.id }).where(eq(schema.tags.id, first.tag.id));
    await expectError(await publicView(a.alertId), 404, "NOT_FOUND");
    await expectError(await contact(a.alertId, { message: "Seen her" }), 404, "NOT_FOUND");
    const left = await json<{ data: { alertId: string }[]; meta: { total: number } }>(await nearby(near));
    expect(left.data.map((item) => item.alertId)).toEqual([b.alertId]);
    expect(left.meta.total).toBe(1);
  });
});

describe("the data export", () => {
  it("holds the account's watch area and the alerts it raised, with their precise place", async () => {
    const { owner, tag } = await lostPet();
    expect((await putArea(owner, { latitude: 48.13743, longitude: 11.57549, radiusKm: 4, species: "DOG" })).status).toBe(200);
    const { alertId } = await raised(owner, tag.id, { latitude: 48.14001, longitude: 11.58002, note: "Near the river" });
    const response = await call(exportRoute, apiRequest("/api/v1/auth/me/export", { headers: bearer(owner.accessToken), ip: nextTestIp() }));
    expect(response.status).toBe(200);
    const { data } = await json<{ data: { alertArea: unknown[]; lostPetAlerts: unknown[] } }>(response);
    expect(data.alertArea).toEqual([{ latitude: 48.137, longitude: 11.575, radiusKm: 4, species: "DOG", createdAt: expect.any(String), updatedAt: expect.any(String) }]);
    expect(data.lostPetAlerts).toEqual([expect.objectContaining({ id: alertId, tagId: tag.id, latitude: 48.14001, longitude: 11.58002, note: "Near the river", radiusKm: 5, closedAt: null })]);
  });
});
