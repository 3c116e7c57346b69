import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import type { Notification } from "@/db/schema";
import { POST as createKeyRoute } from "@/app/api/v1/auth/api-keys/route";
import { GET as listRoute, POST as listOtherMethod } from "@/app/api/v1/notifications/route";
import { GET as unreadCountRoute } from "@/app/api/v1/notifications/unread-count/route";
import { GET as readOtherMethod, PATCH as readRoute } from "@/app/api/v1/notifications/[id]/read/route";
import { GET as readAllOtherMethod, POST as readAllRoute } from "@/app/api/v1/notifications/read-all/route";
import { GET as getPreferencesRoute, PATCH as preferencesOtherMethod, PUT as putPreferencesRoute } from "@/app/api/v1/notifications/preferences/route";
import { NotFoundError } from "@/lib/services/errors";
import { notificationItemSchema, openNotification } from "@/lib/services/notifications/store";
import { notificationPreferencesSchema } from "@/lib/services/notifications/preferences";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json } from "../support/http";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

type ErrorBody = { success: false; error: { code: string; message: string; details?: { issues: { field: string; message: string }[]; fieldErrors: Record<string, string[]> } } };
type Item = { id: string; type: string; title: string; body: string; read: boolean; data: Record<string, unknown>; createdAt: string };
type Page = { success: true; data: Item[]; meta: { total: number; page: number; totalPages: number } };

/** Stores notifications straight in the table, oldest first, a minute apart, so the order is known. */
async function seedNotifications(userId: string, count: number, overrides: Partial<Notification> = {}): Promise<Notification[]> {
  const base = Date.parse("2026-02-01T10:00:00.000Z");
  const rows = Array.from({ length: count }, (_, index) => ({
    userId,
    type: "TAG_SCANNED" as const,
    title: `Notice ${index + 1}`,
    body: `Body ${index + 1}`,
    data: { n: index + 1 },
    createdAt: new Date(base + index * 60_000),
    ...overrides,
  }));
  return getDatabase().db.insert(schema.notifications).values(rows).returning();
}

const list = (headers: Record<string, string>, search = "") => call(listRoute, apiRequest(`/api/v1/notifications${search}`, { headers }));
const unread = (headers: Record<string, string>) => call(unreadCountRoute, apiRequest("/api/v1/notifications/unread-count", { headers }));
const markRead = (headers: Record<string, string>, id: string) => call(readRoute, apiRequest(`/api/v1/notifications/${id}/read`, { method: "PATCH", headers }), { id });
const readAll = (headers: Record<string, string>) => call(readAllRoute, apiRequest("/api/v1/notifications/read-all", { method: "POST", headers }));
const getPreferences = (headers: Record<string, string>) => call(getPreferencesRoute, apiRequest("/api/v1/notifications/preferences", { headers }));
const putPreferences = (headers: Record<string, string>, body: unknown) => call(putPreferencesRoute, apiRequest("/api/v1/notifications/preferences", { method: "PUT", headers, body }));

async function expectError(response: Response, status: number, code: string): Promise<ErrorBody> {
  expect(response.status).toBe(status);
  const body = await json<ErrorBody>(response);
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  return body;
}

async function unreadCount(account: TestAccount): Promise<number> {
  const response = await unread(bearer(account.accessToken));
  expect(response.status).toBe(200);
  return (await json<{ data: { count: number } }>(response)).data.count;
}

async function isRead(id: string): Promise<boolean> {
  const [row] = await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.id, id));
  return row!.readAt !== null;
}

describe("authentication", () => {
  it("answers 401 on every notification endpoint without a credential", async () => {
    await expectError(await list({}), 401, "UNAUTHORIZED");
    await expectError(await unread({}), 401, "UNAUTHORIZED");
    await expectError(await markRead({}, MISSING_ID), 401, "UNAUTHORIZED");
    await expectError(await readAll({}), 401, "UNAUTHORIZED");
    await expectError(await getPreferences({}), 401, "UNAUTHORIZED");
    await expectError(await putPreferences({}, { email: { tagScanned: false } }), 401, "UNAUTHORIZED");
  });

  it("answers 401 to a bad bearer token", async () => {
    await expectError(await list(bearer("not-a-token")), 401, "UNAUTHORIZED");
  });

  it("accepts an API key, acting as its user", async () => {
    const account = await registerAccount();
    await seedNotifications(account.id, 2);
    const created = await call(createKeyRoute, apiRequest("/api/v1/auth/api-keys", { method: "POST", headers: bearer(account.accessToken), body: { name: "notifier" } }));
    expect(created.status).toBe(201);
    const { key } = (await json<{ data: { key: string } }>(created)).data;
    const viaKey = { "X-API-Key": key };

    const page = await json<Page>(await list(viaKey));
    expect(page.meta.total).toBe(2);
    const [first] = page.data;
    expect((await markRead(viaKey, first!.id)).status).toBe(200);
    expect((await json<{ data: { count: number } }>(await unread(viaKey))).data.count).toBe(1);
    expect((await json<{ data: { count: number } }>(await readAll(viaKey))).data.count).toBe(1);
    expect((await putPreferences(viaKey, { push: { tagScanned: false } })).status).toBe(200);
    expect((await json<{ data: { push: { tagScanned: boolean } } }>(await getPreferences(viaKey))).data.push.tagScanned).toBe(false);
  });

  it("answers 405 to methods an endpoint does not have", async () => {
    const account = await registerAccount();
    const headers = bearer(account.accessToken);
    await expectError(await call(listOtherMethod, apiRequest("/api/v1/notifications", { method: "POST", headers })), 405, "METHOD_NOT_ALLOWED");
    await expectError(await call(readOtherMethod, apiRequest(`/api/v1/notifications/${MISSING_ID}/read`, { headers }), { id: MISSING_ID }), 405, "METHOD_NOT_ALLOWED");
    await expectError(await call(readAllOtherMethod, apiRequest("/api/v1/notifications/read-all", { headers })), 405, "METHOD_NOT_ALLOWED");
    await expectError(await call(preferencesOtherMethod, apiRequest("/api/v1/notifications/preferences", { method: "PATCH", headers, body: {} })), 405, "METHOD_NOT_ALLOWED");
  });
});

describe("GET /notifications", () => {
  it("answers an empty page for a new account", async () => {
    const account = await registerAccount();
    const response = await list(bearer(account.accessToken));
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, data: [], meta: { total: 0, page: 1, totalPages: 0, totalIsEstimate: false, nextCursor: null } });
  });

  it("lists only my notifications, newest first, in the documented shape", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    const seeded = await seedNotifications(alice.id, 3);
    await seedNotifications(bob.id, 4);
    await getDatabase().db.update(schema.notifications).set({ readAt: new Date() }).where(eq(schema.notifications.id, seeded[0]!.id));

    const page = await json<Page>(await list(bearer(alice.accessToken)));
    expect(page.meta).toMatchObject({ total: 3, page: 1, totalPages: 1 });
    expect(page.data.map((item) => item.title)).toEqual(["Notice 3", "Notice 2", "Notice 1"]);
    for (const item of page.data) expect(notificationItemSchema.safeParse(item).success).toBe(true);
    expect(page.data[2]).toEqual({ id: seeded[0]!.id, type: "TAG_SCANNED", title: "Notice 1", body: "Body 1", read: true, data: { n: 1 }, createdAt: "2026-02-01T10:00:00.000Z" });
    expect(page.data[0]!.read).toBe(false);
    expect(Object.keys(page.data[0]!).sort()).toEqual(["body", "createdAt", "data", "id", "read", "title", "type"]);
  });

  it("pages with page and limit and reports total and totalPages", async () => {
    const account = await registerAccount();
    await seedNotifications(account.id, 12);
    const headers = bearer(account.accessToken);

    const first = await json<Page>(await list(headers, "?page=1&limit=5"));
    expect(first.meta).toMatchObject({ total: 12, page: 1, totalPages: 3 });
    expect(first.data.map((item) => item.title)).toEqual(["Notice 12", "Notice 11", "Notice 10", "Notice 9", "Notice 8"]);

    const last = await json<Page>(await list(headers, "?page=3&limit=5"));
    expect(last.meta).toMatchObject({ total: 12, page: 3, totalPages: 3 });
    expect(last.data.map((item) => item.title)).toEqual(["Notice 2", "Notice 1"]);

    const beyond = await json<Page>(await list(headers, "?page=4&limit=5"));
    expect(beyond.data).toEqual([]);
    expect(beyond.meta).toMatchObject({ total: 12, page: 4, totalPages: 3 });

    const defaults = await json<Page>(await list(headers));
    expect(defaults.data).toHaveLength(10);
    expect(defaults.meta).toMatchObject({ total: 12, page: 1, totalPages: 2 });
  });

  it.each(["?page=0", "?page=-1", "?page=abc", "?limit=0", "?limit=101", "?limit=2.5"])("rejects %s with 400", async (search) => {
    const account = await registerAccount();
    const body = await expectError(await list(bearer(account.accessToken), search), 400, "VALIDATION_ERROR");
    expect(body.error.details?.issues.length).toBeGreaterThan(0);
  });
});

describe("GET /notifications/unread-count", () => {
  it("counts only my unread notifications", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    expect(await unreadCount(alice)).toBe(0);
    await seedNotifications(alice.id, 4);
    await seedNotifications(alice.id, 2, { readAt: new Date() });
    await seedNotifications(bob.id, 3);
    const response = await unread(bearer(alice.accessToken));
    expect(await json(response)).toEqual({ success: true, data: { count: 4 } });
    expect(await unreadCount(bob)).toBe(3);
  });
});

describe("PATCH /notifications/:id/read", () => {
  it("marks one of mine as read, and again without complaint", async () => {
    const account = await registerAccount();
    const [first, second] = await seedNotifications(account.id, 2);
    const headers = bearer(account.accessToken);

    const response = await markRead(headers, first!.id);
    expect(response.status).toBe(200);
    const body = await json<{ success: true; data: { message: string } }>(response);
    expect(body.success).toBe(true);
    expect(typeof body.data.message).toBe("string");
    expect(await isRead(first!.id)).toBe(true);
    expect(await isRead(second!.id)).toBe(false);
    expect(await unreadCount(account)).toBe(1);

    const [row] = await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.id, first!.id));
    expect((await markRead(headers, first!.id)).status).toBe(200);
    const [again] = await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.id, first!.id));
    expect(again!.readAt).toEqual(row!.readAt);

    const page = await json<Page>(await list(headers));
    expect(page.data.find((item) => item.id === first!.id)?.read).toBe(true);
  });

  it("answers 404 for another user's notification and leaves it unread", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    const [bobs] = await seedNotifications(bob.id, 1);
    await expectError(await markRead(bearer(alice.accessToken), bobs!.id), 404, "NOT_FOUND");
    expect(await isRead(bobs!.id)).toBe(false);
  });

  it("answers 404 for an unknown id and for a malformed id", async () => {
    const account = await registerAccount();
    const headers = bearer(account.accessToken);
    await expectError(await markRead(headers, MISSING_ID), 404, "NOT_FOUND");
    await expectError(await markRead(headers, "not-a-uuid"), 404, "NOT_FOUND");
    await expectError(await markRead(headers, "1"), 404, "NOT_FOUND");
  });
});

describe("opening a notification (the dashboard's open link, push clicks, e-mail buttons)", () => {
  const contextOf = (account: TestAccount) => ({ actor: { kind: "user" as const, userId: account.id, role: "USER" as const, ip: "203.0.113.10" }, db: getDatabase().db });
  const tagId = "0b0e7e36-3c1f-4a5e-9d3e-2f1a6c8b9d10";

  it("marks it read and answers where it leads", async () => {
    const account = await registerAccount();
    const [offer, declined] = await seedNotifications(account.id, 2, { type: "TAG_STATUS_CHANGED", data: { tagId, transferId: "t", transferStatus: "DECLINED" } });
    expect(await openNotification(contextOf(account), offer!.id)).toEqual({ path: `/dashboard/tags/${tagId}` });
    expect(await isRead(offer!.id)).toBe(true);
    expect(await isRead(declined!.id)).toBe(false);
    // Opening again is fine and leads to the same place.
    expect(await openNotification(contextOf(account), offer!.id)).toEqual({ path: `/dashboard/tags/${tagId}` });
  });

  it("treats another user's notification as missing and leaves it unread", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    const [bobs] = await seedNotifications(bob.id, 1);
    await expect(openNotification(contextOf(alice), bobs!.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(openNotification(contextOf(alice), MISSING_ID)).rejects.toBeInstanceOf(NotFoundError);
    expect(await isRead(bobs!.id)).toBe(false);
  });
});

describe("POST /notifications/read-all", () => {
  it("marks all of mine as read and counts how many were unread", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    await seedNotifications(alice.id, 3);
    await seedNotifications(alice.id, 2, { readAt: new Date() });
    const [bobs] = await seedNotifications(bob.id, 2);
    const headers = bearer(alice.accessToken);

    const response = await readAll(headers);
    expect(response.status).toBe(200);
    const body = await json<{ data: { message: string; count: number } }>(response);
    expect(body.data.count).toBe(3);
    expect(typeof body.data.message).toBe("string");
    expect(await unreadCount(alice)).toBe(0);
    expect((await json<Page>(await list(headers))).data.every((item) => item.read)).toBe(true);

    expect(await unreadCount(bob)).toBe(2);
    expect(await isRead(bobs!.id)).toBe(false);

    expect((await json<{ data: { count: number } }>(await readAll(headers))).data.count).toBe(0);
  });

  it("answers count 0 with nothing to read", async () => {
    const account = await registerAccount();
    const response = await readAll(bearer(account.accessToken));
    expect(response.status).toBe(200);
    expect((await json<{ data: { count: number } }>(response)).data.count).toBe(0);
  });
});

describe("notification preferences", () => {
  const DEFAULTS = {
    email: { tagScanned: true, messageReceived: true, statusChange: true, marketing: false, lostPetNearby: true },
    push: { tagScanned: true, messageReceived: true, statusChange: true, lostPetNearby: true },
    quietHours: null,
    timeZone: null,
  };

  it("answers the defaults before anything is stored", async () => {
    const account = await registerAccount();
    const response = await getPreferences(bearer(account.accessToken));
    expect(response.status).toBe(200);
    const body = await json<{ success: true; data: unknown }>(response);
    expect(body).toEqual({ success: true, data: DEFAULTS });
    expect(notificationPreferencesSchema.safeParse(body.data).success).toBe(true);
  });

  it("round-trips a subset, keeping what was left out, and upserts one row", async () => {
    const account = await registerAccount();
    const headers = bearer(account.accessToken);

    const first = await putPreferences(headers, { email: { tagScanned: false, marketing: true } });
    expect(first.status).toBe(200);
    expect(typeof (await json<{ data: { message: string } }>(first)).data.message).toBe("string");
    expect((await json<{ data: unknown }>(await getPreferences(headers))).data).toEqual({
      ...DEFAULTS,
      email: { tagScanned: false, messageReceived: true, statusChange: true, marketing: true, lostPetNearby: true },
    });

    expect((await putPreferences(headers, { push: { statusChange: false, lostPetNearby: false }, quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" } })).status).toBe(200);
    expect((await json<{ data: unknown }>(await getPreferences(headers))).data).toEqual({
      email: { tagScanned: false, messageReceived: true, statusChange: true, marketing: true, lostPetNearby: true },
      push: { tagScanned: true, messageReceived: true, statusChange: false, lostPetNearby: false },
      quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" },
      timeZone: "Europe/Berlin",
    });

    expect((await putPreferences(headers, { email: { tagScanned: true } })).status).toBe(200);
    const kept = (await json<{ data: { email: { tagScanned: boolean }; quietHours: unknown } }>(await getPreferences(headers))).data;
    expect(kept.email.tagScanned).toBe(true);
    expect(kept.quietHours).toEqual({ start: "22:00", end: "07:00", timeZone: "Europe/Berlin" });

    expect((await putPreferences(headers, { quietHours: null })).status).toBe(200);
    expect((await json<{ data: { quietHours: unknown } }>(await getPreferences(headers))).data.quietHours).toBeNull();

    const rows = await getDatabase().db.select().from(schema.notificationPreferences).where(eq(schema.notificationPreferences.userId, account.id));
    expect(rows).toHaveLength(1);
  });

  it("accepts an empty body and ignores unknown fields", async () => {
    const account = await registerAccount();
    const headers = bearer(account.accessToken);
    expect((await putPreferences(headers, {})).status).toBe(200);
    expect((await putPreferences(headers, { userId: MISSING_ID, sms: { tagScanned: true }, email: { tagScanned: false, spam: true } })).status).toBe(200);
    expect((await json<{ data: unknown }>(await getPreferences(headers))).data).toEqual({ ...DEFAULTS, email: { ...DEFAULTS.email, tagScanned: false } });
  });

  it("stores the time zone by its canonical IANA name", async () => {
    const account = await registerAccount();
    const headers = bearer(account.accessToken);
    expect((await putPreferences(headers, { quietHours: { start: "23:30", end: "06:15", timeZone: "america/new_york" } })).status).toBe(200);
    expect((await json<{ data: { quietHours: unknown } }>(await getPreferences(headers))).data.quietHours).toEqual({ start: "23:30", end: "06:15", timeZone: "America/New_York" });
  });

  it("keeps each user's preferences apart", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    expect((await putPreferences(bearer(alice.accessToken), { email: { messageReceived: false }, push: { messageReceived: false } })).status).toBe(200);
    expect((await json<{ data: unknown }>(await getPreferences(bearer(bob.accessToken)))).data).toEqual(DEFAULTS);
  });

  it.each([
    ["a string for a boolean", { email: { tagScanned: "no" } }, "email.tagScanned"],
    ["a number for a boolean", { push: { statusChange: 0 } }, "push.statusChange"],
    ["a non-object channel", { email: true }, "email"],
    ["an hour past 23", { quietHours: { start: "24:00", end: "07:00", timeZone: "UTC" } }, "quietHours.start"],
    ["a single-digit hour", { quietHours: { start: "22:00", end: "7:00", timeZone: "UTC" } }, "quietHours.end"],
    ["minutes past 59", { quietHours: { start: "22:60", end: "07:00", timeZone: "UTC" } }, "quietHours.start"],
    ["an unknown time zone", { quietHours: { start: "22:00", end: "07:00", timeZone: "Mars/Olympus_Mons" } }, "quietHours.timeZone"],
    ["an offset for a time zone", { quietHours: { start: "22:00", end: "07:00", timeZone: "+01:00" } }, "quietHours.timeZone"],
    ["a missing time zone", { quietHours: { start: "22:00", end: "07:00" } }, "quietHours.timeZone"],
    ["an empty window", { quietHours: { start: "22:00", end: "22:00", timeZone: "UTC" } }, "quietHours.end"],
    ["quiet hours as a string", { quietHours: "22:00-07:00" }, "quietHours"],
  ])("rejects %s with 400 naming the field", async (_label, body, field) => {
    const account = await registerAccount();
    const headers = bearer(account.accessToken);
    const error = await expectError(await putPreferences(headers, body), 400, "VALIDATION_ERROR");
    expect(error.error.details?.fieldErrors[field]?.length).toBeGreaterThan(0);
    expect(error.error.details?.issues.some((issue) => issue.field === field)).toBe(true);
    expect((await json<{ data: unknown }>(await getPreferences(headers))).data).toEqual(DEFAULTS);
  });

  it("rejects malformed JSON and a non-object body with 400", async () => {
    const account = await registerAccount();
    const headers = { ...bearer(account.accessToken), "content-type": "application/json" };
    await expectError(await call(putPreferencesRoute, apiRequest("/api/v1/notifications/preferences", { method: "PUT", headers, rawBody: "{ email: " })), 400, "VALIDATION_ERROR");
    await expectError(await putPreferences(bearer(account.accessToken), [true]), 400, "VALIDATION_ERROR");
  });
});

describe("the owner's time zone in the preferences", () => {
  type Stored = { quietHours: { start: string; end: string; timeZone: string } | null; timeZone: string | null };
  const stored = async (headers: Record<string, string>) => (await json<{ data: Stored }>(await getPreferences(headers))).data;

  it("is set on its own, without quiet hours, by its canonical name, and null follows the browser again", async () => {
    const account = await registerAccount();
    const headers = bearer(account.accessToken);
    expect((await putPreferences(headers, { timeZone: "asia/tokyo" })).status).toBe(200);
    const body = await json<{ success: true; data: Stored }>(await getPreferences(headers));
    expect(body.data).toMatchObject({ quietHours: null, timeZone: "Asia/Tokyo" });
    expect(notificationPreferencesSchema.safeParse(body.data).success).toBe(true);

    // Other changes keep it.
    expect((await putPreferences(headers, { email: { marketing: true } })).status).toBe(200);
    expect((await stored(headers)).timeZone).toBe("Asia/Tokyo");

    expect((await putPreferences(headers, { timeZone: null })).status).toBe(200);
    expect(await stored(headers)).toMatchObject({ quietHours: null, timeZone: null });
  });

  it("is what quiet hours use: a body with only quietHours (as before) sets it, and changing it moves them", async () => {
    const account = await registerAccount();
    const headers = bearer(account.accessToken);
    expect((await putPreferences(headers, { quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" } })).status).toBe(200);
    expect(await stored(headers)).toEqual(expect.objectContaining({ quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" }, timeZone: "Europe/Berlin" }));

    expect((await putPreferences(headers, { timeZone: "America/New_York" })).status).toBe(200);
    expect(await stored(headers)).toMatchObject({ quietHours: { start: "22:00", end: "07:00", timeZone: "America/New_York" }, timeZone: "America/New_York" });
    const [row] = await getDatabase().db.select().from(schema.notificationPreferences).where(eq(schema.notificationPreferences.userId, account.id));
    expect(row?.timeZone).toBe("America/New_York");

    // Turning quiet hours off keeps the zone for the pages.
    expect((await putPreferences(headers, { quietHours: null })).status).toBe(200);
    expect(await stored(headers)).toMatchObject({ quietHours: null, timeZone: "America/New_York" });
  });

  it("may come with quiet hours when both name the same zone", async () => {
    const account = await registerAccount();
    const headers = bearer(account.accessToken);
    expect((await putPreferences(headers, { timeZone: "Asia/Singapore", quietHours: { start: "23:00", end: "06:00", timeZone: "asia/singapore" } })).status).toBe(200);
    expect(await stored(headers)).toMatchObject({ quietHours: { start: "23:00", end: "06:00", timeZone: "Asia/Singapore" }, timeZone: "Asia/Singapore" });
    // Quiet hours off and the zone cleared in one request is fine too.
    expect((await putPreferences(headers, { timeZone: null, quietHours: null })).status).toBe(200);
    expect(await stored(headers)).toMatchObject({ quietHours: null, timeZone: null });
  });

  it("rejects two different zones, or none while quiet hours are on, with 400 VALIDATION_ERROR and stores nothing", async () => {
    const account = await registerAccount();
    const headers = bearer(account.accessToken);
    const differing = await expectError(await putPreferences(headers, { timeZone: "Asia/Tokyo", quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" } }), 400, "VALIDATION_ERROR");
    expect(differing.error.details?.fieldErrors.timeZone?.length).toBeGreaterThan(0);
    expect(await stored(headers)).toMatchObject({ quietHours: null, timeZone: null });

    const withoutZone = await expectError(await putPreferences(headers, { timeZone: null, quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" } }), 400, "VALIDATION_ERROR");
    expect(withoutZone.error.details?.fieldErrors.timeZone?.length).toBeGreaterThan(0);

    expect((await putPreferences(headers, { quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" } })).status).toBe(200);
    const cleared = await expectError(await putPreferences(headers, { timeZone: null }), 400, "VALIDATION_ERROR");
    expect(cleared.error.details?.fieldErrors.timeZone?.[0]).toMatch(/quiet hours/i);
    expect(await stored(headers)).toMatchObject({ quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" }, timeZone: "Europe/Berlin" });
  });

  it.each([
    ["an unknown zone", "Mars/Olympus_Mons"],
    ["an offset", "+01:00"],
    ["an abbreviation Intl does not take", "CEST"],
    ["an empty string", ""],
    ["a number", 9],
    ["an object", { name: "Europe/Berlin" }],
    ["markup", "<script>alert(1)</script>"],
    ["a path", "../../etc/passwd"],
    ["a very long name", `Europe/${"a".repeat(300)}`],
  ])("rejects %s as timeZone with 400 VALIDATION_ERROR naming the field", async (_label, timeZone) => {
    const account = await registerAccount();
    const headers = bearer(account.accessToken);
    const error = await expectError(await putPreferences(headers, { timeZone }), 400, "VALIDATION_ERROR");
    expect(error.error.details?.fieldErrors.timeZone?.length).toBeGreaterThan(0);
    expect((await stored(headers)).timeZone).toBeNull();
  });

  it("is each user's own, and needs a credential", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    expect((await putPreferences(bearer(alice.accessToken), { timeZone: "Asia/Tokyo" })).status).toBe(200);
    expect((await stored(bearer(bob.accessToken))).timeZone).toBeNull();
    await expectError(await putPreferences({}, { timeZone: "Europe/Berlin" }), 401, "UNAUTHORIZED");
    await expectError(await putPreferences(bearer("not-a-token"), { timeZone: "Europe/Berlin" }), 401, "UNAUTHORIZED");
    expect((await stored(bearer(alice.accessToken))).timeZone).toBe("Asia/Tokyo");
  });
});
