import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { and, eq, isNull, ne } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as statsRoute } from "@/app/api/v1/admin/stats/route";
import { GET as usersRoute } from "@/app/api/v1/admin/users/route";
import { PATCH as userPatchRoute } from "@/app/api/v1/admin/users/[id]/route";
import { GET as analyticsRoute } from "@/app/api/v1/admin/analytics/route";
import { GET as auditRoute } from "@/app/api/v1/admin/audit-log/route";
import { GET as emergencyRoute } from "@/app/api/v1/emergency/route";
import { createApiKey } from "@/lib/services/auth/api-keys";
import { updateUserAsAdmin } from "@/lib/services/admin";
import { bearer, loginAccount, registerAccount, setRole, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { mintTestTags } from "../support/tags";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

type ErrorBody = { success: false; error: { code: string; message: string; details?: { fieldErrors?: Record<string, string[]> } } };
type AdminUser = {
  id: string;
  email: string;
  role: string;
  suspended: boolean;
  suspendedAt: string | null;
  tagCount: number;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  subscription: string;
  firstName: string;
  lastName: string;
  createdAt: string;
};
type Page<T> = { success: true; data: T[]; meta: { total: number; page: number; totalPages: number } };
type Day = { date: string; scans: number; signups: number; orders: number; paidOrders: number; revenue: { currency: string; amount: number }[] };
type Entry = { id: string; actorId: string | null; actorEmail: string | null; action: string; entityType: string; entityId: string | null; before: Record<string, unknown> | null; after: Record<string, unknown> | null; createdAt: string };

const db = () => getDatabase().db;
const auth = (account: TestAccount | null) => (account ? bearer(account.accessToken) : {});

async function account(role: "USER" | "ADMIN" | "SUPER_ADMIN" = "USER"): Promise<TestAccount> {
  const created = await registerAccount();
  if (role !== "USER") await setRole(created.id, role);
  return created;
}

const get = (handler: typeof statsRoute, path: string, who: TestAccount | null) => call(handler, apiRequest(path, { headers: auth(who), ip: nextTestIp() }));
const stats = (who: TestAccount | null) => get(statsRoute, "/api/v1/admin/stats", who);
const users = (who: TestAccount | null, query = "") => get(usersRoute, `/api/v1/admin/users${query}`, who);
const analytics = (who: TestAccount | null, query = "") => get(analyticsRoute, `/api/v1/admin/analytics${query}`, who);
const auditLog = (who: TestAccount | null, query = "") => get(auditRoute, `/api/v1/admin/audit-log${query}`, who);
const patchUser = (who: TestAccount | null, id: string, body: unknown) =>
  call(userPatchRoute, apiRequest(`/api/v1/admin/users/${id}`, { method: "PATCH", headers: auth(who), body, ip: nextTestIp() }), { id });

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = await json<ErrorBody>(response);
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  return body.error;
}
async function data<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}
async function userRow(id: string) {
  const [row] = await db().select().from(schema.users).where(eq(schema.users.id, id));
  return row!;
}
async function auditOf(entityId: string) {
  return db().select().from(schema.auditLog).where(eq(schema.auditLog.entityId, entityId));
}

describe("admin platform: who may call", () => {
  it("answers 401 without a credential and 403 to a USER on every endpoint; ADMIN reads all but the audit log", async () => {
    const user = await account();
    const admin = await account("ADMIN");
    const superAdmin = await account("SUPER_ADMIN");
    for (const who of [null, user]) {
      const [status, code] = who ? [403, "FORBIDDEN"] : [401, "UNAUTHORIZED"];
      await expectError(await stats(who), status, code);
      await expectError(await users(who), status, code);
      await expectError(await analytics(who), status, code);
      await expectError(await auditLog(who), status, code);
      await expectError(await patchUser(who, user.id, { suspended: true }), status, code);
    }
    for (const who of [admin, superAdmin]) {
      expect((await stats(who)).status).toBe(200);
      expect((await users(who)).status).toBe(200);
      expect((await analytics(who)).status).toBe(200);
    }
    await expectError(await auditLog(admin), 403, "FORBIDDEN");
    expect((await auditLog(superAdmin)).status).toBe(200);
    expect((await userRow(user.id)).suspendedAt).toBeNull();
  });
});

describe("GET /admin/stats", () => {
  it("counts known data: the totals move by exactly what was added", async () => {
    const admin = await account("ADMIN");
    const before = await data<Record<string, Record<string, unknown>>>(await stats(admin));

    const verified = await account();
    await db().update(schema.users).set({ emailVerified: true, subscription: "PRO" }).where(eq(schema.users.id, verified.id));
    const suspended = await account();
    await db().update(schema.users).set({ suspendedAt: new Date() }).where(eq(schema.users.id, suspended.id));
    const old = await account();
    await db().update(schema.users).set({ createdAt: new Date("2020-01-01T00:00:00Z") }).where(eq(schema.users.id, old.id));
    const [tagA, tagB] = await mintTestTags(2);
    await db().update(schema.tags).set({ ownerId: verified.id, status: "ACTIVE" }).where(eq(schema.tags.id, tagA!.id));
    const now = Date.now();
    await db()
      .insert(schema.scans)
      .values([
        { tagId: tagA!.id, scannedAt: new Date(now - 60 * 60 * 1000) },
        { tagId: tagA!.id, scannedAt: new Date(now - 3 * 24 * 60 * 60 * 1000), suspicious: true },
        { tagId: tagB!.id, scannedAt: new Date(now - 30 * 24 * 60 * 60 * 1000) },
      ]);
    await db()
      .insert(schema.orders)
      .values([
        { userId: verified.id, totalMinor: 1999, currency: "USD", status: "CONFIRMED", paymentStatus: "COMPLETED", paidAt: new Date() },
        { userId: verified.id, totalMinor: 500, currency: "EUR", status: "DELIVERED", paymentStatus: "COMPLETED", paidAt: new Date() },
        { userId: verified.id, totalMinor: 700, currency: "USD" },
      ]);
    await db().insert(schema.newsletterSubscribers).values([
      { email: `n-${randomBytes(4).toString("hex")}@example.com`, status: "CONFIRMED", confirmedAt: new Date() },
      { email: `n-${randomBytes(4).toString("hex")}@example.com` },
    ]);

    const after = await data<{
      users: { total: number; verified: number; suspended: number; byTier: Record<string, number>; newLast7Days: number; admins: number };
      tags: { total: number; owned: number; unowned: number; byStatus: Record<string, number> };
      scans: { total: number; last24h: number; last7Days: number; suspicious: number };
      orders: { total: number; pending: number; paid: number; toShip: number; revenue: { currency: string; amount: number }[] };
      newsletter: { confirmed: number; pending: number };
    }>(await stats(admin));
    const b = before as unknown as typeof after;
    expect(after.users.total - b.users.total).toBe(3);
    expect(after.users.verified - b.users.verified).toBe(1);
    expect(after.users.suspended - b.users.suspended).toBe(1);
    expect(after.users.byTier.PRO! - b.users.byTier.PRO!).toBe(1);
    expect(after.users.byTier.FREE! - b.users.byTier.FREE!).toBe(2);
    expect(after.users.newLast7Days - b.users.newLast7Days).toBe(2);
    expect(after.users.admins).toBe(b.users.admins);
    expect(after.tags.total - b.tags.total).toBe(2);
    expect(after.tags.owned - b.tags.owned).toBe(1);
    expect(after.tags.unowned - b.tags.unowned).toBe(1);
    expect((after.tags.byStatus.ACTIVE ?? 0) - (b.tags.byStatus.ACTIVE ?? 0)).toBe(1);
    expect(after.scans.total - b.scans.total).toBe(3);
    expect(after.scans.last24h - b.scans.last24h).toBe(1);
    expect(after.scans.last7Days - b.scans.last7Days).toBe(2);
    expect(after.scans.suspicious - b.scans.suspicious).toBe(1);
    expect(after.orders.total - b.orders.total).toBe(3);
    expect(after.orders.paid - b.orders.paid).toBe(2);
    expect(after.orders.pending - b.orders.pending).toBe(1);
    expect(after.orders.toShip - b.orders.toShip).toBe(1);
    const revenue = (list: { currency: string; amount: number }[], currency: string) => list.find((item) => item.currency === currency)?.amount ?? 0;
    expect(Math.round((revenue(after.orders.revenue, "USD") - revenue(b.orders.revenue, "USD")) * 100)).toBe(1999);
    expect(Math.round((revenue(after.orders.revenue, "EUR") - revenue(b.orders.revenue, "EUR")) * 100)).toBe(500);
    expect(after.newsletter.confirmed - b.newsletter.confirmed).toBe(1);
    expect(after.newsletter.pending - b.newsletter.pending).toBe(1);
  });
});

describe("GET /admin/users", () => {
  it("searches e-mail and name case-insensitively, with % and _ matching themselves, and paginates", async () => {
    const admin = await account("ADMIN");
    const token = randomBytes(4).toString("hex");
    const underscore = await account();
    const lookalike = await account();
    const percent = await account();
    const percentLookalike = await account();
    const named = await account();
    await db().update(schema.users).set({ email: `a_b.${token}@example.com` }).where(eq(schema.users.id, underscore.id));
    await db().update(schema.users).set({ email: `axb.${token}@example.com` }).where(eq(schema.users.id, lookalike.id));
    await db().update(schema.users).set({ email: `p100%.${token}@example.com` }).where(eq(schema.users.id, percent.id));
    await db().update(schema.users).set({ email: `p100x.${token}@example.com` }).where(eq(schema.users.id, percentLookalike.id));
    await db().update(schema.users).set({ firstName: `Grace${token}`, lastName: "Hopper" }).where(eq(schema.users.id, named.id));
    await mintTestTags(1).then(([tag]) => db().update(schema.tags).set({ ownerId: named.id }).where(eq(schema.tags.id, tag!.id)));

    const search = async (text: string) => (await json<Page<AdminUser>>(await users(admin, `?search=${encodeURIComponent(text)}`))).data.map((user) => user.id);
    expect(await search(`A_B.${token.toUpperCase()}`)).toEqual([underscore.id]);
    expect(await search(`p100%.${token}`)).toEqual([percent.id]);
    expect((await search(`.${token}@`)).sort()).toEqual([underscore.id, lookalike.id, percent.id, percentLookalike.id].sort());
    expect(await search(`grace${token} hopper`)).toEqual([named.id]);
    expect(await search(`%${token}%nothing`)).toEqual([]);

    const page = await json<Page<AdminUser>>(await users(admin, `?search=${encodeURIComponent(`grace${token}`)}`));
    expect(page.meta).toMatchObject({ total: 1, page: 1, totalPages: 1 });
    expect(page.data[0]).toMatchObject({ id: named.id, role: "USER", suspended: false, suspendedAt: null, tagCount: 1, emailVerified: false, twoFactorEnabled: false, subscription: "FREE", lastName: "Hopper" });
    expect(Object.keys(page.data[0]!).sort()).toEqual(
      ["id", "email", "firstName", "lastName", "role", "emailVerified", "twoFactorEnabled", "subscription", "suspended", "suspendedAt", "createdAt", "tagCount"].sort(),
    );

    const first = await json<Page<AdminUser>>(await users(admin, `?search=${token}&limit=3&page=1`));
    const second = await json<Page<AdminUser>>(await users(admin, `?search=${token}&limit=3&page=2`));
    // Four e-mail addresses and one first name carry the token.
    expect(first.meta).toMatchObject({ total: 5, page: 1, totalPages: 2 });
    expect(first.data).toHaveLength(3);
    expect(second.data).toHaveLength(2);
    expect(new Set([...first.data, ...second.data].map((user) => user.id)).size).toBe(5);
  });

  it("filters by role and suspension; bad filters and pagination are 400 with field details", async () => {
    const admin = await account("ADMIN");
    const target = await account();
    await db().update(schema.users).set({ suspendedAt: new Date() }).where(eq(schema.users.id, target.id));
    const suspended = await json<Page<AdminUser>>(await users(admin, "?suspended=true&limit=100"));
    expect(suspended.data.every((user) => user.suspended)).toBe(true);
    expect(suspended.data.map((user) => user.id)).toContain(target.id);
    const active = await json<Page<AdminUser>>(await users(admin, "?suspended=false&limit=100"));
    expect(active.data.map((user) => user.id)).not.toContain(target.id);
    const admins = await json<Page<AdminUser>>(await users(admin, "?role=ADMIN&limit=100"));
    expect(admins.data.every((user) => user.role === "ADMIN")).toBe(true);
    expect(admins.data.map((user) => user.id)).toContain(admin.id);

    for (const [query, field] of [
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?page=0", "page"],
      ["?page=abc", "page"],
      ["?role=ROOT", "role"],
      ["?suspended=yes", "suspended"],
      [`?search=${"x".repeat(101)}`, "search"],
    ] as const) {
      const error = await expectError(await users(admin, query), 400, "VALIDATION_ERROR");
      expect(error.details?.fieldErrors?.[field]).toBeDefined();
    }
  });
});

describe("PATCH /admin/users/:id", () => {
  it("suspends: every earlier bearer token, API key and cookie session answers 403 at once; unsuspending lets the user sign in again", async () => {
    const admin = await account("ADMIN");
    const target = await account();
    const { key } = await createApiKey({ actor: { kind: "user", userId: target.id, role: "USER", ip: "203.0.113.10" }, db: db() }, { name: "script" });
    const ask = (headers: Record<string, string>) => call(emergencyRoute, apiRequest("/api/v1/emergency", { ip: nextTestIp(), headers }));
    const credentials = [bearer(target.accessToken), { "x-api-key": key }, { cookie: target.cookie }];
    for (const headers of credentials) expect((await ask(headers)).status).toBe(200);

    const suspended = await data<AdminUser>(await patchUser(admin, target.id, { suspended: true }));
    expect(suspended).toMatchObject({ id: target.id, suspended: true, role: "USER" });
    expect(suspended.suspendedAt).not.toBeNull();
    for (const headers of credentials) {
      const error = await expectError(await ask(headers), 403, "FORBIDDEN");
      expect(error.message).toMatch(/suspended/);
    }
    await expectError(await loginAccount(target.email, target.password), 403, "FORBIDDEN");
    expect(await db().select().from(schema.sessions).where(and(eq(schema.sessions.userId, target.id), isNull(schema.sessions.revokedAt)))).toEqual([]);
    expect(await db().select().from(schema.apiKeys).where(and(eq(schema.apiKeys.userId, target.id), isNull(schema.apiKeys.revokedAt)))).toEqual([]);

    const [entry] = await auditOf(target.id);
    expect(entry).toMatchObject({ actorId: admin.id, actorEmail: admin.email.toLowerCase(), action: "user.update", entityType: "user", before: { role: "USER", suspendedAt: null }, after: { role: "USER", suspendedAt: suspended.suspendedAt } });

    const lifted = await data<AdminUser>(await patchUser(admin, target.id, { suspended: false }));
    expect(lifted).toMatchObject({ suspended: false, suspendedAt: null });
    const login = await loginAccount(target.email, target.password);
    expect(login.status).toBe(200);
    const { data: fresh } = await json<{ data: { accessToken: string } }>(login);
    expect((await ask(bearer(fresh.accessToken))).status).toBe(200);
    // The sessions and keys revoked by the suspension stay revoked.
    await expectError(await ask(bearer(target.accessToken)), 401, "UNAUTHORIZED");
    await expectError(await ask({ "x-api-key": key }), 401, "UNAUTHORIZED");

    const notes = await db().select().from(schema.notifications).where(eq(schema.notifications.userId, target.id));
    expect(notes.map((note) => [note.type, note.title]).sort()).toEqual([
      ["SECURITY", "Your account is no longer suspended"],
      ["SECURITY", "Your account is suspended"],
    ]);
    expect(await auditOf(target.id)).toHaveLength(2);
  });

  it("follows the role rules: an ADMIN suspends USERs only and changes no role; a SUPER_ADMIN suspends admins and changes roles; no one a SUPER_ADMIN or themselves", async () => {
    const admin = await account("ADMIN");
    const otherAdmin = await account("ADMIN");
    const superAdmin = await account("SUPER_ADMIN");
    const otherSuper = await account("SUPER_ADMIN");
    const user = await account();

    await expectError(await patchUser(admin, user.id, { role: "ADMIN" }), 403, "FORBIDDEN");
    await expectError(await patchUser(admin, user.id, { role: "USER", suspended: true }), 403, "FORBIDDEN");
    await expectError(await patchUser(admin, otherAdmin.id, { suspended: true }), 403, "FORBIDDEN");
    await expectError(await patchUser(admin, otherSuper.id, { suspended: true }), 403, "FORBIDDEN");
    await expectError(await patchUser(admin, admin.id, { suspended: true }), 403, "FORBIDDEN");
    await expectError(await patchUser(superAdmin, otherSuper.id, { suspended: true }), 403, "FORBIDDEN");
    await expectError(await patchUser(superAdmin, superAdmin.id, { suspended: true }), 403, "FORBIDDEN");
    await expectError(await patchUser(superAdmin, superAdmin.id, { role: "ADMIN" }), 403, "FORBIDDEN");
    expect((await userRow(user.id)).suspendedAt).toBeNull();
    expect((await userRow(otherAdmin.id)).suspendedAt).toBeNull();
    expect((await userRow(superAdmin.id)).role).toBe("SUPER_ADMIN");

    expect(await data<AdminUser>(await patchUser(superAdmin, otherAdmin.id, { suspended: true }))).toMatchObject({ suspended: true, role: "ADMIN" });
    expect(await data<AdminUser>(await patchUser(superAdmin, user.id, { role: "ADMIN" }))).toMatchObject({ role: "ADMIN", suspended: false });
    expect((await userRow(user.id)).role).toBe("ADMIN");
    // The promoted user now reads the admin API; demoted again, no longer.
    expect((await stats(user)).status).toBe(200);
    expect(await data<AdminUser>(await patchUser(superAdmin, user.id, { role: "USER" }))).toMatchObject({ role: "USER" });
    await expectError(await stats(user), 403, "FORBIDDEN");
    // An account promoted while suspended: only a super admin lifts its suspension.
    const promoted = await account();
    await data(await patchUser(admin, promoted.id, { suspended: true }));
    await data(await patchUser(superAdmin, promoted.id, { role: "SUPER_ADMIN" }));
    await expectError(await patchUser(admin, promoted.id, { suspended: false }), 403, "FORBIDDEN");
    expect(await data<AdminUser>(await patchUser(superAdmin, promoted.id, { suspended: false }))).toMatchObject({ role: "SUPER_ADMIN", suspended: false });
    // A super admin may demote another super admin while one remains.
    expect(await data<AdminUser>(await patchUser(superAdmin, otherSuper.id, { role: "ADMIN" }))).toMatchObject({ role: "ADMIN" });

    const roleNotes = await db().select().from(schema.notifications).where(eq(schema.notifications.userId, user.id));
    expect(roleNotes.map((note) => note.title)).toEqual(["Your account role changed", "Your account role changed"]);
    const entries = await auditOf(user.id);
    expect(entries.map((entry) => [entry.before, entry.after])).toEqual(
      expect.arrayContaining([
        [{ role: "USER", suspendedAt: null }, { role: "ADMIN", suspendedAt: null }],
        [{ role: "ADMIN", suspendedAt: null }, { role: "USER", suspendedAt: null }],
      ]),
    );
    // Nothing was written by the refused calls.
    expect(await auditOf(superAdmin.id)).toEqual([]);
  });

  it("refuses to demote the last SUPER_ADMIN with 409, also when two super admins demote each other at once", async () => {
    const first = await account("SUPER_ADMIN");
    const second = await account("SUPER_ADMIN");
    const results = await Promise.all([patchUser(first, second.id, { role: "USER" }), patchUser(second, first.id, { role: "USER" })]);
    const statuses = results.map((response) => response.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const roles = [(await userRow(first.id)).role, (await userRow(second.id)).role].sort();
    expect(roles).toEqual(["SUPER_ADMIN", "USER"]);

    // The race made deterministic: an actor read as SUPER_ADMIN, demoted before the write, demoting the only one left.
    const [survivor, demoted] = (await userRow(first.id)).role === "SUPER_ADMIN" ? [first, second] : [second, first];
    // Super admins of earlier tests in this file step down, so the survivor is the only one.
    await db().update(schema.users).set({ role: "ADMIN" }).where(and(eq(schema.users.role, "SUPER_ADMIN"), ne(schema.users.id, survivor.id)));
    const stale = { actor: { kind: "user" as const, userId: demoted.id, role: "SUPER_ADMIN" as const, ip: "203.0.113.10" }, db: db() };
    await expect(updateUserAsAdmin(stale, survivor.id, { role: "ADMIN" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await userRow(survivor.id)).role).toBe("SUPER_ADMIN");
    // The one left cannot demote themselves either (403, their own role).
    await expectError(await patchUser(survivor, survivor.id, { role: "USER" }), 403, "FORBIDDEN");
  });

  it("keeps one consistent state and one audit entry per call under 10 concurrent PATCHes", async () => {
    const superAdmin = await account("SUPER_ADMIN");
    const target = await account();
    // A suspension and its lifting first: the notification job queues then exist (on PostgreSQL the first job of
    // a kind creates its queue on another pooled connection), so the ten below only wait for each other's row lock.
    await data(await patchUser(superAdmin, target.id, { suspended: true }));
    await data(await patchUser(superAdmin, target.id, { suspended: false }));
    const bodies = Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? { suspended: true, role: index % 4 === 0 ? "ADMIN" : "USER" } : { suspended: false }));
    const responses = await Promise.all(bodies.map((body) => patchUser(superAdmin, target.id, body)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const entries = await auditOf(target.id);
    expect(entries).toHaveLength(12);
    // Each entry's before is the state some other entry left (or the start): a chain with no lost update.
    const key = (state: unknown) => {
      const { role, suspendedAt } = state as { role: string; suspendedAt: string | null };
      return `${role}/${suspendedAt ? "s" : "-"}`;
    };
    const row = await userRow(target.id);
    const afters = entries.map((entry) => key(entry.after));
    const befores = entries.map((entry) => key(entry.before));
    const counts = new Map<string, number>();
    for (const state of ["USER/-", ...afters]) counts.set(state, (counts.get(state) ?? 0) + 1);
    for (const state of [...befores, key({ role: row.role, suspendedAt: row.suspendedAt })]) counts.set(state, (counts.get(state) ?? 0) - 1);
    expect([...counts.values()].every((n) => n === 0)).toBe(true);
    if (row.suspendedAt) {
      expect(await db().select().from(schema.sessions).where(and(eq(schema.sessions.userId, target.id), isNull(schema.sessions.revokedAt)))).toEqual([]);
    }
  });

  it("answers 404 for an unknown or malformed id and 400 for a bad body", async () => {
    const superAdmin = await account("SUPER_ADMIN");
    const user = await account();
    await expectError(await patchUser(superAdmin, MISSING_ID, { suspended: true }), 404, "NOT_FOUND");
    await expectError(await patchUser(superAdmin, "not-a-uuid", { suspended: true }), 404, "NOT_FOUND");
    for (const body of [{}, { role: "ROOT" }, { suspended: "yes" }, { role: 3 }]) {
      await expectError(await patchUser(superAdmin, user.id, body), 400, "VALIDATION_ERROR");
    }
    expect(await auditOf(user.id)).toEqual([]);
  });
});

describe("GET /admin/analytics", () => {
  it("answers one zero-filled row per UTC day, counting by the day's UTC boundaries", async () => {
    const admin = await account("ADMIN");
    const buyer = await account();
    const [tag] = await mintTestTags(1);
    // 2021-03-10 .. 2021-03-14: nothing else in this file is dated then.
    const at = (iso: string) => new Date(iso);
    await db()
      .insert(schema.scans)
      .values([
        { tagId: tag!.id, scannedAt: at("2021-03-09T23:59:59.999Z") },
        { tagId: tag!.id, scannedAt: at("2021-03-10T00:00:00.000Z") },
        { tagId: tag!.id, scannedAt: at("2021-03-10T23:59:59.999Z") },
        { tagId: tag!.id, scannedAt: at("2021-03-12T12:00:00.000Z") },
        { tagId: tag!.id, scannedAt: at("2021-03-15T00:00:00.000Z") },
      ]);
    const signup = await account();
    await db().update(schema.users).set({ createdAt: at("2021-03-11T00:00:00.000Z") }).where(eq(schema.users.id, signup.id));
    await db().update(schema.users).set({ createdAt: at("2021-03-11T23:30:00.000Z") }).where(eq(schema.users.id, buyer.id));
    await db()
      .insert(schema.orders)
      .values([
        { userId: buyer.id, totalMinor: 1000, currency: "USD", createdAt: at("2021-03-12T08:00:00Z"), paidAt: at("2021-03-13T00:00:01Z"), status: "CONFIRMED", paymentStatus: "COMPLETED" },
        { userId: buyer.id, totalMinor: 250, currency: "USD", createdAt: at("2021-03-12T09:00:00Z"), paidAt: at("2021-03-13T23:59:59Z"), status: "CONFIRMED", paymentStatus: "COMPLETED" },
        { userId: buyer.id, totalMinor: 990, currency: "EUR", createdAt: at("2021-03-13T10:00:00Z"), paidAt: at("2021-03-13T11:00:00Z"), status: "REFUNDED", paymentStatus: "REFUNDED" },
        { userId: buyer.id, totalMinor: 400, currency: "USD", createdAt: at("2021-03-14T23:59:59.999Z") },
        { userId: buyer.id, totalMinor: 400, currency: "USD", createdAt: at("2021-03-09T23:59:59.999Z") },
      ]);

    const days = await data<Day[]>(await analytics(admin, "?from=2021-03-10&to=2021-03-14"));
    expect(days).toEqual([
      { date: "2021-03-10", scans: 2, signups: 0, orders: 0, paidOrders: 0, revenue: [] },
      { date: "2021-03-11", scans: 0, signups: 2, orders: 0, paidOrders: 0, revenue: [] },
      { date: "2021-03-12", scans: 1, signups: 0, orders: 2, paidOrders: 0, revenue: [] },
      {
        date: "2021-03-13",
        scans: 0,
        signups: 0,
        orders: 1,
        paidOrders: 3,
        revenue: [
          { currency: "EUR", amount: 9.9 },
          { currency: "USD", amount: 12.5 },
        ],
      },
      { date: "2021-03-14", scans: 0, signups: 0, orders: 1, paidOrders: 0, revenue: [] },
    ]);
    const single = await data<Day[]>(await analytics(admin, "?from=2021-03-15&to=2021-03-15"));
    expect(single).toEqual([{ date: "2021-03-15", scans: 1, signups: 0, orders: 0, paidOrders: 0, revenue: [] }]);
  });

  it("defaults to the 30 days up to today and refuses bad ranges with 400", async () => {
    const admin = await account("ADMIN");
    const days = await data<Day[]>(await analytics(admin));
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.date).toBe(new Date().toISOString().slice(0, 10));
    expect(days[0]!.date).toBe(new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10));
    expect(days.at(-1)!.signups).toBeGreaterThanOrEqual(1);

    expect(await data<Day[]>(await analytics(admin, "?from=2020-01-01&to=2020-12-31"))).toHaveLength(366);
    for (const query of ["?from=2021-03-10&to=2021-03-09", "?from=2020-01-01&to=2021-01-01", "?from=2021-02-30", "?to=yesterday", "?from=2021-3-1", "?from=20210301"]) {
      await expectError(await analytics(admin, query), 400, "VALIDATION_ERROR");
    }
  });
});

describe("GET /admin/audit-log", () => {
  it("lists newest first with who, what and the change; filters by action, entity type and actor; SUPER_ADMIN only", async () => {
    const superAdmin = await account("SUPER_ADMIN");
    const admin = await account("ADMIN");
    const user = await account();
    await data(await patchUser(admin, user.id, { suspended: true }));
    await data(await patchUser(superAdmin, user.id, { suspended: false }));
    await data(await patchUser(superAdmin, user.id, { role: "ADMIN" }));

    const page = await json<Page<Entry>>(await auditLog(superAdmin, `?entityType=user&limit=100`));
    const mine = page.data.filter((entry) => entry.entityId === user.id);
    expect(mine.map((entry) => [entry.actorEmail, entry.after?.role, Boolean(entry.after?.suspendedAt)])).toEqual([
      [superAdmin.email.toLowerCase(), "ADMIN", false],
      [superAdmin.email.toLowerCase(), "USER", false],
      [admin.email.toLowerCase(), "USER", true],
    ]);
    expect(Object.keys(mine[0]!).sort()).toEqual(["action", "actorEmail", "actorId", "after", "before", "createdAt", "entityId", "entityType", "id"]);

    const byActor = await json<Page<Entry>>(await auditLog(superAdmin, `?actorId=${admin.id}`));
    expect(byActor.meta.total).toBe(1);
    expect(byActor.data[0]).toMatchObject({ actorId: admin.id, action: "user.update", entityId: user.id });
    expect((await json<Page<Entry>>(await auditLog(superAdmin, `?action=user.update&actorId=${superAdmin.id}&limit=1&page=2`))).data).toHaveLength(1);
    expect((await json<Page<Entry>>(await auditLog(superAdmin, `?action=nothing.here`))).meta.total).toBe(0);

    await expectError(await auditLog(admin), 403, "FORBIDDEN");
    for (const query of ["?actorId=nope", "?limit=0", "?limit=101", "?page=0"]) await expectError(await auditLog(superAdmin, query), 400, "VALIDATION_ERROR");
  });
});
