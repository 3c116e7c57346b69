import { describe, expect, it } from "vitest";
import { and, eq, lt, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as statsRoute } from "@/app/api/v1/admin/stats/route";
import { GET as analyticsRoute } from "@/app/api/v1/admin/analytics/route";
import { GET as scanRoute } from "@/app/api/v1/scan/[encryptedId]/route";
import { DELETE as deleteMeRoute } from "@/app/api/v1/auth/me/route";
import { getAdminAnalytics, getAdminStats, type AdminStats, type AnalyticsDay } from "@/lib/services/admin";
import type { ServiceContext } from "@/lib/services/context";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, nextTestIp } from "../support/http";
import { contactOwnerOf, finderReplyRequest } from "../support/messages";
import { adminAccount, createTestProduct, ok, payOrder, placeTestOrder } from "../support/shop";
import { giveTestTag } from "../support/tags";
import { USER_AGENTS as UA } from "../support/user-agents";

// Admin stats and analytics read rollups that the database's triggers keep (migration 0029,
// docs/decisions/0049-admin-rollups.md). These tests write through the real routes and services and check
// that the numbers move by exactly what was written, that deleting old raw rows leaves them as they were,
// and that the backfill rebuilds them from the raw rows.

const db = () => getDatabase().db;
const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);

let adminPromise: Promise<TestAccount> | undefined;
const admin = () => (adminPromise ??= adminAccount());
const adminContext = async (): Promise<ServiceContext> => ({ db: db(), actor: { kind: "user", userId: (await admin()).id, role: "ADMIN", ip: "127.0.0.1" } });

async function stats(): Promise<AdminStats> {
  return ok<AdminStats>(await call(statsRoute, apiRequest("/api/v1/admin/stats", { headers: bearer((await admin()).accessToken), ip: nextTestIp() })));
}
async function analytics(from: string, to: string): Promise<AnalyticsDay[]> {
  return ok<AnalyticsDay[]>(await call(analyticsRoute, apiRequest(`/api/v1/admin/analytics?from=${from}&to=${to}`, { headers: bearer((await admin()).accessToken), ip: nextTestIp() })));
}
const dayOf = async (date: string) => (await analytics(date, date))[0]!;
const scan = (encryptedId: string) =>
  call(scanRoute, apiRequest(`/api/v1/scan/${encodeURIComponent(encryptedId)}`, { headers: { "user-agent": UA.iphoneSafari }, ip: nextTestIp() }), { encryptedId });
const revenueOf = (list: { currency: string; amount: number }[], currency: string) => list.find((row) => row.currency === currency)?.amount ?? 0;
const withoutTime = (value: AdminStats) => ({ ...value, generatedAt: "" });

/** The stats at a fixed time (the rolling windows depend on it), through the service. */
async function statsAt(now: Date): Promise<AdminStats> {
  return getAdminStats(await adminContext(), now);
}
async function rebuild(): Promise<void> {
  await db().execute(sql`select rollup_backfill()`);
}

// First in this file: the backfill rebuilds from the raw rows, which the retention test below deletes.
describe("the backfill", () => {
  it("rebuilds the same stats and chart from the raw rows, and counts rows written while the triggers were off", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    for (let index = 0; index < 3; index++) expect((await scan(tag.encryptedId)).status).toBe(200);
    await contactOwnerOf(tag.encryptedId);
    const product = await createTestProduct(await admin(), { price: 7.5, stock: 10, tagPack: 0, currency: "GBP" });
    await payOrder(await placeTestOrder(owner, [{ productId: product.id, quantity: 2 }]), owner.id);
    await db().update(schema.users).set({ createdAt: new Date("2022-06-01T12:00:00Z") }).where(eq(schema.users.id, owner.id));

    const now = new Date();
    const before = withoutTime(await statsAt(now));
    const chartBefore = await getAdminAnalytics(await adminContext(), { from: "2022-01-01", to: "2022-12-31" }, now);
    const recentBefore = await analytics(new Date(Date.now() - 29 * DAY_MS).toISOString().slice(0, 10), today());
    await rebuild();
    expect(withoutTime(await statsAt(now))).toEqual(before);
    expect(await getAdminAnalytics(await adminContext(), { from: "2022-01-01", to: "2022-12-31" }, now)).toEqual(chartBefore);
    expect(await analytics(new Date(Date.now() - 29 * DAY_MS).toISOString().slice(0, 10), today())).toEqual(recentBefore);
    expect(chartBefore.find((day) => day.date === "2022-06-01")!.signups).toBeGreaterThanOrEqual(1);

    // Rows that existed before the triggers (as on a database migrated with data in it): invisible until the
    // backfill counts them.
    await db().execute(sql`alter table scans disable trigger scans_rollup_insert`);
    try {
      await db().insert(schema.scans).values([{ tagId: tag.id }, { tagId: tag.id, suspicious: true }, { tagId: tag.id, scannedAt: new Date("2022-06-02T08:00:00Z"), scanClass: "BOT" }]);
    } finally {
      await db().execute(sql`alter table scans enable trigger scans_rollup_insert`);
    }
    const unseen = await statsAt(now);
    expect(unseen.scans.total).toBe(before.scans.total);
    await rebuild();
    const counted = await statsAt(now);
    expect(counted.scans.total - before.scans.total).toBe(3);
    expect(counted.scans.suspicious - before.scans.suspicious).toBe(1);
    expect(counted.scans.last24h - before.scans.last24h).toBe(2);
    expect(counted.scans.last7Days - before.scans.last7Days).toBe(2);
    const june2 = (await getAdminAnalytics(await adminContext(), { from: "2022-06-02", to: "2022-06-02" }, now))[0]!;
    expect(june2.scans).toBe(chartBefore.find((day) => day.date === "2022-06-02")!.scans + 1);
  });
});

describe("counts through the real write paths", () => {
  it("counts ten concurrent scans of one tag, each once, in the totals, the windows and today's chart", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    const before = await stats();
    const dayBefore = await dayOf(today());
    const responses = await Promise.all(Array.from({ length: 10 }, () => scan(tag.encryptedId)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const raw = await db().select({ id: schema.scans.id }).from(schema.scans).where(eq(schema.scans.tagId, tag.id));
    expect(raw).toHaveLength(10);

    const after = await stats();
    expect(after.scans.total - before.scans.total).toBe(10);
    expect(after.scans.last24h - before.scans.last24h).toBe(10);
    expect(after.scans.last7Days - before.scans.last7Days).toBe(10);
    expect(after.scans.suspicious).toBe(before.scans.suspicious);
    expect((await dayOf(today())).scans - dayBefore.scans).toBe(10);
    // The per-class rollup holds the same ten (whatever class the filter gave each).
    const [classes] = await db()
      .select({ n: sql<string>`sum(${schema.rollupDays.n})` })
      .from(schema.rollupDays)
      .where(and(eq(schema.rollupDays.metric, "scans"), eq(schema.rollupDays.day, today())));
    expect(Number(classes!.n)).toBe((await dayOf(today())).scans);
  });

  it("counts a sign-up, an order placed then paid (its revenue), a conversation and its messages", async () => {
    const before = await stats();
    const dayBefore = await dayOf(today());

    const buyer = await registerAccount();
    const signedUp = await stats();
    expect(signedUp.users.total - before.users.total).toBe(1);
    expect(signedUp.users.byTier.FREE - before.users.byTier.FREE).toBe(1);
    expect(signedUp.users.newLast7Days - before.users.newLast7Days).toBe(1);
    expect((await dayOf(today())).signups - dayBefore.signups).toBe(1);

    const product = await createTestProduct(await admin(), { price: 12.25, stock: 10, tagPack: 0, currency: "NOK" });
    const order = await placeTestOrder(buyer, [{ productId: product.id, quantity: 2 }]);
    const placed = await stats();
    expect(placed.orders.total - before.orders.total).toBe(1);
    expect(placed.orders.pending - before.orders.pending).toBe(1);
    expect(placed.orders.paid).toBe(before.orders.paid);
    expect(revenueOf(placed.orders.revenue, "NOK")).toBe(revenueOf(before.orders.revenue, "NOK"));
    expect((await dayOf(today())).orders - dayBefore.orders).toBe(1);

    await payOrder(order, buyer.id);
    const paid = await stats();
    expect(paid.orders.total - before.orders.total).toBe(1);
    expect(paid.orders.pending).toBe(before.orders.pending);
    expect(paid.orders.paid - before.orders.paid).toBe(1);
    expect(paid.orders.toShip - before.orders.toShip).toBe(1);
    expect(Math.round((revenueOf(paid.orders.revenue, "NOK") - revenueOf(before.orders.revenue, "NOK")) * 100)).toBe(2450);
    const payDay = await dayOf(today());
    expect(payDay.paidOrders - dayBefore.paidOrders).toBe(1);
    expect(Math.round((revenueOf(payDay.revenue, "NOK") - revenueOf(dayBefore.revenue, "NOK")) * 100)).toBe(2450);

    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "LOST" });
    const contact = await contactOwnerOf(tag.encryptedId);
    expect((await finderReplyRequest(contact.threadToken, { message: "I am near the station." })).status).toBe(201);
    const talked = await stats();
    expect(talked.messages.threads - paid.messages.threads).toBe(1);
    expect(talked.messages.activeThreads - paid.messages.activeThreads).toBe(1);
    expect(talked.messages.messages - paid.messages.messages).toBe(2);
    expect(talked.tags.total - paid.tags.total).toBe(1);
    expect((talked.tags.byStatus.LOST ?? 0) - (paid.tags.byStatus.LOST ?? 0)).toBe(1);
  });

  it("follows a deleted account's state (users, tags, orders) while its sign-up and order stay in the chart", async () => {
    const account = await registerAccount();
    await giveTestTag(account.id, { status: "ACTIVE" });
    const product = await createTestProduct(await admin(), { price: 3, stock: 10, tagPack: 0 });
    await placeTestOrder(account, [{ productId: product.id, quantity: 1 }]);
    const before = await stats();
    const dayBefore = await dayOf(today());

    const response = await call(deleteMeRoute, apiRequest("/api/v1/auth/me", { method: "DELETE", headers: bearer(account.accessToken), body: { currentPassword: account.password } }));
    expect(response.status).toBe(200);
    const after = await stats();
    expect(before.users.total - after.users.total).toBe(1);
    expect(before.users.newLast7Days - after.users.newLast7Days).toBe(1);
    expect(before.tags.total - after.tags.total).toBe(1);
    expect(before.tags.owned - after.tags.owned).toBe(1);
    expect((before.tags.byStatus.ACTIVE ?? 0) - (after.tags.byStatus.ACTIVE ?? 0)).toBe(1);
    expect(before.orders.total - after.orders.total).toBe(1);
    expect(before.orders.pending - after.orders.pending).toBe(1);
    expect(await dayOf(today())).toEqual(dayBefore);
  });
});

describe("the rolling windows", () => {
  it("are exact at any instant: whole hours from the hourly rollup, the first partial hour from the raw scans", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    // A moment no other test writes near: the windows start at 10:30 and run open-ended.
    const now = new Date("2100-01-01T10:30:00.000Z");
    const dayStart = new Date(now.getTime() - DAY_MS);
    const weekStart = new Date(now.getTime() - 7 * DAY_MS);
    const at = (base: Date, offsetMs: number) => ({ tagId: tag.id, scannedAt: new Date(base.getTime() + offsetMs) });
    const before = await statsAt(now);
    await db()
      .insert(schema.scans)
      .values([
        at(dayStart, -1), // 10:29:59.999 the day before: outside, in the same hour as the next two
        at(dayStart, 0), // the window's first instant
        at(dayStart, 29 * 60_000), // 10:59 in the first, partial hour
        at(dayStart, 30 * 60_000), // 11:00: the first whole hour
        at(now, 5 * 60 * 60_000), // after now: the windows have no end
        at(weekStart, -60_000), // outside the week
        at(weekStart, 60_000), // inside the week only
      ]);
    const after = await statsAt(now);
    expect(after.scans.last24h - before.scans.last24h).toBe(4);
    expect(after.scans.last7Days - before.scans.last7Days).toBe(6);
    expect(after.scans.total - before.scans.total).toBe(7);

    // The windows agree with counting the raw rows, at the half hour and on a whole hour (no partial hour).
    for (const instant of [now, new Date("2100-01-01T11:00:00.000Z"), new Date("2100-01-01T10:59:59.999Z")]) {
      const counted = await statsAt(instant);
      const since = async (ms: number) => {
        const [row] = await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(schema.scans)
          .where(sql`${schema.scans.scannedAt} >= ${new Date(instant.getTime() - ms).toISOString()}::timestamptz`);
        return row!.n;
      };
      expect(counted.scans.last24h).toBe(await since(DAY_MS));
      expect(counted.scans.last7Days).toBe(await since(7 * DAY_MS));
    }
  });
});

describe("retention of raw rows", () => {
  it("deleting old scans and messages (and a tag with its scans) changes neither the totals nor the chart", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "LOST" });
    const old = new Date(Date.now() - 400 * DAY_MS);
    const oldDay = old.toISOString().slice(0, 10);
    await db()
      .insert(schema.scans)
      .values([
        { tagId: tag.id, scannedAt: old },
        { tagId: tag.id, scannedAt: old, suspicious: true, scanClass: "BOT" },
      ]);
    expect((await scan(tag.encryptedId)).status).toBe(200);
    const contact = await contactOwnerOf(tag.encryptedId);
    expect((await finderReplyRequest(contact.threadToken, { message: "Still here." })).status).toBe(201);
    // The conversation was long ago: its messages moved back (the rollup moves them to that day).
    await db().update(schema.threadMessages).set({ createdAt: old }).where(sql`${schema.threadMessages.threadId} in (select id from threads where tag_id = ${tag.id})`);
    const [messagesOnOldDay] = await db()
      .select({ n: sql<string>`coalesce(sum(${schema.rollupDays.n}), 0)` })
      .from(schema.rollupDays)
      .where(and(eq(schema.rollupDays.metric, "messages"), eq(schema.rollupDays.day, oldDay)));
    expect(Number(messagesOnOldDay!.n)).toBeGreaterThanOrEqual(2);

    const from = new Date(Date.now() - 410 * DAY_MS).toISOString().slice(0, 10);
    const to = new Date(Date.now() - 45 * DAY_MS).toISOString().slice(0, 10);
    const before = await stats();
    const chartBefore = await analytics(from, to);
    expect(chartBefore.find((day) => day.date === oldDay)!.scans).toBeGreaterThanOrEqual(2);

    // What the retention job deletes: scans older than 13 months, messages of conversations older than 12.
    await db().delete(schema.scans).where(lt(schema.scans.scannedAt, new Date(Date.now() - 395 * DAY_MS)));
    await db().delete(schema.threadMessages).where(lt(schema.threadMessages.createdAt, new Date(Date.now() - 365 * DAY_MS)));
    const after = await stats();
    expect(after.scans).toEqual(before.scans);
    expect(after.messages).toEqual(before.messages);
    expect(await analytics(from, to)).toEqual(chartBefore);
    const [messagesStill] = await db()
      .select({ n: sql<string>`coalesce(sum(${schema.rollupDays.n}), 0)` })
      .from(schema.rollupDays)
      .where(and(eq(schema.rollupDays.metric, "messages"), eq(schema.rollupDays.day, oldDay)));
    expect(messagesStill!.n).toBe(messagesOnOldDay!.n);

    // A deleted tag takes its scans and conversations: the tag and the thread leave the state counts, the
    // scans and messages stay recorded.
    await db().delete(schema.tags).where(eq(schema.tags.id, tag.id));
    const gone = await stats();
    expect(gone.scans.total).toBe(before.scans.total);
    expect(gone.messages.messages).toBe(before.messages.messages);
    expect(before.messages.threads - gone.messages.threads).toBe(1);
    expect(before.tags.total - gone.tags.total).toBe(1);
    expect((before.tags.byStatus.LOST ?? 0) - (gone.tags.byStatus.LOST ?? 0)).toBe(1);
    expect(await analytics(from, to)).toEqual(chartBefore);
  });
});
