import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import PrivacyPage from "@/app/(site)/privacy/page";
import { GET as tagRoute } from "@/app/api/v1/tags/[id]/route";
import { GET as tagScansRoute } from "@/app/api/v1/tags/[id]/scans/route";
import { POST as threadLocationRoute } from "@/app/api/v1/scan/thread/[token]/location/route";
import { enqueueJob, JOBS_SCHEMA, prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { getAdminAnalytics, getAdminStats } from "@/lib/services/admin";
import { systemContext, type ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { rolledUpScans } from "@/lib/services/tags";
import { RolledUpScanSummary } from "@/components/tags/scan-list";
import { ROLLUP_HOURS_KEPT_DAYS, retentionSettings, runRetention, type RetentionReport } from "@/lib/services/retention";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { contactOwnerOf, threadRowByToken } from "../support/messages";
import { giveTestTag } from "../support/tags";

/**
 * The retention run (lib/services/retention) on rows seeded old: each kind of row is erased or deleted
 * past its age and not before, the owner's totals (tags.scan_count) and the scans' history by day
 * (tag_scan_days) stay right, a second run finds nothing, and small batches end where one big batch does.
 */

const db = () => getDatabase().db;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  await stopJobs();
});

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as T[];
}

async function tagScanCount(account: TestAccount, tagId: string): Promise<number> {
  const response = await call(tagRoute, apiRequest(`/api/v1/tags/${tagId}`, { headers: bearer(account.accessToken) }), { id: tagId });
  expect(response.status).toBe(200);
  return (await json<{ data: { scanCount: number } }>(response)).data.scanCount;
}

async function listedScans(account: TestAccount, tagId: string): Promise<number> {
  const response = await call(tagScansRoute, apiRequest(`/api/v1/tags/${tagId}/scans?limit=100`, { headers: bearer(account.accessToken) }), { id: tagId });
  expect(response.status).toBe(200);
  return (await json<{ data: unknown[] }>(response)).data.length;
}

type ScanSeed = { days: number; scanClass?: "REAL" | "BOT" | "PREFETCH" | "REPEAT" | "OWNER"; shared?: boolean };

/** Scans at the given ages (days before now), with an IP hash, a city and, when shared, a precise place; the tag's count raised to match. */
async function seedScans(tagId: string, seeds: ScanSeed[]): Promise<void> {
  await db()
    .insert(schema.scans)
    .values(
      seeds.map((seed) => ({
        tagId,
        scannedAt: ago(seed.days),
        ipHash: `hash-${randomUUID()}`,
        city: "Lyon",
        country: "FR",
        latitude: 45.764,
        longitude: 4.8357,
        accuracy: seed.shared ? 8 : null,
        locationShared: seed.shared ?? false,
        scanClass: seed.scanClass ?? "REAL",
      })),
    );
  const counted = seeds.filter((seed) => !seed.shared).length;
  await db().update(schema.tags).set({ scanCount: sql`${schema.tags.scanCount} + ${counted}` }).where(eq(schema.tags.id, tagId));
}

/** Per tag, UTC day and class: the scans and shared places older than the cutoff, as tag_scan_days should hold them. */
async function expectedDays(tagIds: string[], olderThan: Date) {
  const result = await db().execute(sql`
    select tag_id::text as "tagId", to_char((scanned_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, scan_class::text as "scanClass",
      (count(*) filter (where not location_shared))::int as scans, (count(*) filter (where location_shared))::int as "sharedLocations"
    from scans where tag_id in (${sql.join(tagIds.map((id) => sql`${id}::uuid`), sql`, `)}) and scanned_at < ${olderThan.toISOString()}::timestamptz
    group by 1, 2, 3 order by 1, 2, 3`);
  return rowsOf<{ tagId: string; day: string; scanClass: string; scans: number; sharedLocations: number }>(result);
}

async function rolledDays(tagIds: string[]) {
  const rows = await db().select().from(schema.tagScanDays).where(inArray(schema.tagScanDays.tagId, tagIds));
  return rows
    .map((row) => ({ tagId: row.tagId, day: row.day, scanClass: row.scanClass, scans: row.scans, sharedLocations: row.sharedLocations }))
    .sort((a, b) => `${a.tagId}${a.day}${a.scanClass}`.localeCompare(`${b.tagId}${b.day}${b.scanClass}`));
}

async function scansOf(tagId: string) {
  return db().select().from(schema.scans).where(eq(schema.scans.tagId, tagId)).orderBy(schema.scans.scannedAt);
}

/** A finder's conversation about a new tag, with an e-mail address, a message and a shared place, through the routes. */
async function conversation(owner: TestAccount) {
  const tag = await giveTestTag(owner.id, { status: "LOST", itemName: "Rex" });
  const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "I found your dog by the river", finderName: "Sam", finderEmail: `sam-${randomUUID()}@example.com` });
  const response = await call(
    threadLocationRoute,
    apiRequest(`/api/v1/scan/thread/${encodeURIComponent(threadToken)}/location`, { method: "POST", body: { latitude: 45.76, longitude: 4.83, accuracy: 10 }, ip: nextTestIp() }),
    { token: threadToken },
  );
  expect(response.status).toBe(201);
  const thread = (await threadRowByToken(threadToken))!;
  return { tag, thread };
}

async function messagesOf(threadId: string) {
  return db().select().from(schema.threadMessages).where(eq(schema.threadMessages.threadId, threadId));
}

/** Test setup: a thread's status and last change (the age its closing counts from), bypassing the services. */
async function ageThread(threadId: string, status: "ACTIVE" | "CLOSED" | "BLOCKED", days: number): Promise<void> {
  await db().execute(sql`update threads set status = ${status}, updated_at = ${ago(days).toISOString()}::timestamptz, created_at = ${ago(days + 1).toISOString()}::timestamptz where id = ${threadId}::uuid`);
  await db().execute(sql`update thread_messages set created_at = ${ago(days + 1).toISOString()}::timestamptz where thread_id = ${threadId}::uuid`);
}

async function notify(userId: string, days: number, read: boolean, type: "MESSAGE_RECEIVED" | "FINDER_LOCATION_SHARED" = "MESSAGE_RECEIVED") {
  const [row] = await db()
    .insert(schema.notifications)
    .values({
      userId,
      type,
      title: "t",
      body: "b",
      data: type === "FINDER_LOCATION_SHARED" ? { tagId: randomUUID(), latitude: 45.7, longitude: 4.8, accuracy: 9 } : {},
      createdAt: ago(days),
      readAt: read ? ago(days - 1) : null,
    })
    .returning({ id: schema.notifications.id });
  return row!.id;
}

async function notificationById(id: string) {
  const [row] = await db().select().from(schema.notifications).where(eq(schema.notifications.id, id));
  return row;
}

const total = (report: RetentionReport) => report.rows;

describe("retention run", () => {
  it("rolls scans older than 13 months into per-day counts, keeps the owner's total, and erases finders' IP hashes and shared places after 30 days", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    const other = await giveTestTag(owner.id, { status: "ACTIVE" });
    await seedScans(tag.id, [
      { days: 500 },
      { days: 500 },
      { days: 500, scanClass: "BOT" },
      { days: 500, shared: true },
      { days: 450, scanClass: "REPEAT" },
      { days: 420 },
      { days: 200 },
      { days: 200, shared: true },
      { days: 31 },
      { days: 29 },
      { days: 29, shared: true },
      { days: 1 },
    ]);
    await seedScans(other.id, [{ days: 700 }, { days: 3 }]);
    const before = await tagScanCount(owner, tag.id);
    expect(before).toBe(9);
    const cutoff = new Date(Date.now() - 400 * DAY); // well past 13 months, clear of month lengths
    const expected = await expectedDays([tag.id, other.id], cutoff);
    expect(expected.reduce((sum, row) => sum + row.scans + row.sharedLocations, 0)).toBe(7);

    const report = await runRetention(db());
    expect(report.complete).toBe(true);
    expect(report.steps.scansRolledUp!.rows).toBeGreaterThanOrEqual(7);

    // The owner's total is the same; the list and the map hold the last 13 months.
    expect(await tagScanCount(owner, tag.id)).toBe(before);
    expect(await tagScanCount(owner, other.id)).toBe(2);
    expect(await listedScans(owner, tag.id)).toBe(6);
    expect(await rolledDays([tag.id, other.id])).toEqual(expected);

    const left = await scansOf(tag.id);
    expect(left.map((scan) => Math.round((Date.now() - scan.scannedAt.getTime()) / DAY))).toEqual([200, 200, 31, 29, 29, 1]);
    for (const scan of left) {
      const old = Date.now() - scan.scannedAt.getTime() > 30 * DAY;
      expect(scan.ipHash === null).toBe(old);
      // Coarse place stays; a shared precise place goes at 30 days, a scan's rough position stays.
      expect(scan.city).toBe("Lyon");
      if (scan.locationShared) expect(scan.latitude === null && scan.longitude === null && scan.accuracy === null).toBe(old);
      else expect(scan.latitude).toBe(45.764);
    }

    // A second run has nothing left to do, and changes nothing.
    const again = await runRetention(db());
    expect(again.steps.scansRolledUp!.rows).toBe(0);
    expect(again.steps.scanIpHashesErased!.rows).toBe(0);
    expect(again.steps.scanPlacesErased!.rows).toBe(0);
    expect(await rolledDays([tag.id, other.id])).toEqual(expected);
    expect(await tagScanCount(owner, tag.id)).toBe(before);

    // The owner's scan history ends with what the list no longer shows, from the per-day counts.
    const asOwner: ServiceContext = { actor: { kind: "user", userId: owner.id, role: "USER", ip: "127.0.0.1" }, db: db() };
    const older = await rolledUpScans(asOwner, tag.id);
    expect(older).toMatchObject({ all: 5, real: 3, sharedLocations: 1 });
    const summary = renderToStaticMarkup(<RolledUpScanSummary summary={older!} months={13} />);
    expect(summary).toContain("Older scans: 5 scans from ");
    expect(summary).toContain("(3 real scans), and finders shared their place 1 time.");
    expect(await rolledUpScans(asOwner, (await giveTestTag(owner.id, { status: "ACTIVE" })).id)).toBeNull();
    const stranger = await registerAccount();
    await expect(rolledUpScans({ actor: { kind: "user", userId: stranger.id, role: "USER", ip: "127.0.0.1" }, db: db() }, tag.id)).rejects.toThrow(NotFoundError);
  });

  it("ends in small batches where it ends in one: the same rows, the same per-day counts", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    await seedScans(tag.id, [
      ...Array.from({ length: 11 }, (_, i) => ({ days: 420 + (i % 3) })),
      ...Array.from({ length: 7 }, () => ({ days: 60 })),
      ...Array.from({ length: 4 }, () => ({ days: 60, shared: true })),
    ]);
    const expected = await expectedDays([tag.id], new Date(Date.now() - 400 * DAY));
    const report = await runRetention(db(), { batchSize: 3 });
    expect(report.complete).toBe(true);
    expect(report.steps.scansRolledUp!.batches).toBeGreaterThanOrEqual(4);
    expect(report.steps.scanIpHashesErased!.batches).toBeGreaterThanOrEqual(4);
    expect(await rolledDays([tag.id])).toEqual(expected);
    const left = await scansOf(tag.id);
    expect(left).toHaveLength(11);
    expect(left.every((scan) => scan.ipHash === null)).toBe(true);
    expect(left.filter((scan) => scan.locationShared).every((scan) => scan.latitude === null)).toBe(true);
  });

  it("stops at its time budget and the next run goes on", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    await seedScans(tag.id, Array.from({ length: 5 }, () => ({ days: 420 })));
    const cut = await runRetention(db(), { budgetMs: 0 });
    expect(cut.complete).toBe(false);
    expect(total(cut)).toBe(0);
    expect(await scansOf(tag.id)).toHaveLength(5);
    await runRetention(db());
    expect(await scansOf(tag.id)).toHaveLength(0);
    expect((await rolledDays([tag.id])).reduce((sum, row) => sum + row.scans, 0)).toBe(5);
  });

  it("deletes the messages of conversations closed 12 months ago (the thread stays), erases shared places and the finder's IP hash after 30 days", async () => {
    const owner = await registerAccount();
    const closedLongAgo = await conversation(owner);
    const blockedLongAgo = await conversation(owner);
    const closedRecently = await conversation(owner);
    const activeOld = await conversation(owner);
    const reported = await conversation(owner);
    const fresh = await conversation(owner);
    await ageThread(closedLongAgo.thread.id, "CLOSED", 400);
    await ageThread(blockedLongAgo.thread.id, "BLOCKED", 400);
    await ageThread(closedRecently.thread.id, "CLOSED", 300);
    await ageThread(activeOld.thread.id, "ACTIVE", 400);
    await ageThread(reported.thread.id, "CLOSED", 400);
    await db().insert(schema.reports).values({ reporterId: owner.id, type: "HARASSMENT", description: "threats", threadId: reported.thread.id });
    for (const { thread } of [closedLongAgo, blockedLongAgo, closedRecently, activeOld, reported, fresh]) expect(await messagesOf(thread.id)).toHaveLength(2);

    await runRetention(db());

    for (const { thread } of [closedLongAgo, blockedLongAgo]) {
      expect(await messagesOf(thread.id)).toHaveLength(0);
      const [row] = await db().select().from(schema.threads).where(eq(schema.threads.id, thread.id));
      expect(row).toMatchObject({ finderEmail: null, tokenSealed: null, finderIpHash: null, finderName: "Sam" });
    }
    for (const { thread } of [closedRecently, activeOld, reported]) {
      const messages = await messagesOf(thread.id);
      expect(messages).toHaveLength(2);
      // Older than 30 days: the shared place is gone, the words stay.
      expect(messages.every((message) => message.content.length > 0)).toBe(true);
      expect(messages.every((message) => message.latitude === null && message.longitude === null && message.accuracy === null)).toBe(true);
      const [row] = await db().select().from(schema.threads).where(eq(schema.threads.id, thread.id));
      expect(row!.finderIpHash).toBeNull();
      expect(row!.finderEmail).not.toBeNull();
    }
    const recent = await messagesOf(fresh.thread.id);
    expect(recent.filter((message) => message.latitude !== null)).toHaveLength(1);
    const [freshRow] = await db().select().from(schema.threads).where(eq(schema.threads.id, fresh.thread.id));
    expect(freshRow!.finderIpHash).not.toBeNull();
  });

  it("deletes read notifications after 6 months, keeps unread ones, and erases a shared place from a notification after 30 days", async () => {
    const owner = await registerAccount();
    const readOld = await notify(owner.id, 200, true);
    const unreadOld = await notify(owner.id, 200, false);
    const readRecent = await notify(owner.id, 150, true);
    const placeOld = await notify(owner.id, 40, false, "FINDER_LOCATION_SHARED");
    const placeRecent = await notify(owner.id, 2, false, "FINDER_LOCATION_SHARED");

    await runRetention(db());

    expect(await notificationById(readOld)).toBeUndefined();
    expect(await notificationById(unreadOld)).toBeDefined();
    expect(await notificationById(readRecent)).toBeDefined();
    const erased = await notificationById(placeOld);
    expect(erased!.data).not.toHaveProperty("latitude");
    expect(erased!.data).not.toHaveProperty("longitude");
    expect(erased!.data).not.toHaveProperty("accuracy");
    expect(erased!.data).toHaveProperty("tagId");
    expect((await notificationById(placeRecent))!.data).toMatchObject({ latitude: 45.7, longitude: 4.8, accuracy: 9 });
  });

  it("deletes operational rows by their own ages and keeps what still matters", async () => {
    const owner = await registerAccount();
    const at = (days: number) => ago(days);
    const sid = `SM${randomUUID().replaceAll("-", "")}`;
    await db().insert(schema.emailOutbox).values([
      { to: "old@example.com", from: "x@example.com", subject: "old", text: "t", html: "h", createdAt: at(40) },
      { to: "new@example.com", from: "x@example.com", subject: "new", text: "t", html: "h", createdAt: at(2) },
    ]);
    await db().insert(schema.relayWebhookEvents).values([
      { sid, step: "old", answer: "<Response/>", createdAt: at(40) },
      { sid, step: "new", answer: "<Response/>", createdAt: at(2) },
    ]);
    const events = [`evt_old_${randomUUID()}`, `evt_failed_${randomUUID()}`, `evt_new_${randomUUID()}`];
    await db().insert(schema.paymentEvents).values([
      { id: events[0]!, type: "checkout.session.completed", payload: {}, status: "PROCESSED", receivedAt: at(100), processedAt: at(100) },
      { id: events[1]!, type: "checkout.session.completed", payload: {}, status: "FAILED", receivedAt: at(100) },
      { id: events[2]!, type: "checkout.session.completed", payload: {}, status: "PROCESSED", receivedAt: at(10), processedAt: at(10) },
    ]);
    const [ended] = await db().insert(schema.sessions).values({ userId: owner.id, kind: "API", createdAt: at(60), lastUsedAt: at(50), expiresAt: at(20), revokedAt: at(45) }).returning();
    const [live] = await db().insert(schema.sessions).values({ userId: owner.id, kind: "API", expiresAt: new Date(Date.now() + 30 * DAY) }).returning();
    const [spent] = await db().insert(schema.userTokens).values({ userId: owner.id, purpose: "PASSWORD_RESET", tokenHash: `h-${randomUUID()}`, createdAt: at(40), expiresAt: at(39) }).returning();
    const [pending] = await db().insert(schema.userTokens).values({ userId: owner.id, purpose: "PASSWORD_RESET", tokenHash: `h-${randomUUID()}`, expiresAt: new Date(Date.now() + DAY) }).returning();
    await db().insert(schema.idempotencyKeys).values([
      { caller: `user:${owner.id}`, key: "expired", method: "POST", path: "/x", requestHash: "h", expiresAt: at(1) },
      { caller: `user:${owner.id}`, key: "live", method: "POST", path: "/x", requestHash: "h", expiresAt: new Date(Date.now() + DAY) },
    ]);

    await runRetention(db());

    const outbox = await db().select({ subject: schema.emailOutbox.subject }).from(schema.emailOutbox).where(inArray(schema.emailOutbox.to, ["old@example.com", "new@example.com"]));
    expect(outbox.map((row) => row.subject)).toEqual(["new"]);
    const relay = await db().select({ step: schema.relayWebhookEvents.step }).from(schema.relayWebhookEvents).where(eq(schema.relayWebhookEvents.sid, sid));
    expect(relay.map((row) => row.step)).toEqual(["new"]);
    const payments = await db().select({ id: schema.paymentEvents.id }).from(schema.paymentEvents).where(inArray(schema.paymentEvents.id, events));
    expect(payments.map((row) => row.id).sort()).toEqual([events[1], events[2]].sort());
    const sessions = await db().select({ id: schema.sessions.id }).from(schema.sessions).where(inArray(schema.sessions.id, [ended!.id, live!.id]));
    expect(sessions.map((row) => row.id)).toEqual([live!.id]);
    const tokens = await db().select({ id: schema.userTokens.id }).from(schema.userTokens).where(inArray(schema.userTokens.id, [spent!.id, pending!.id]));
    expect(tokens.map((row) => row.id)).toEqual([pending!.id]);
    const keys = await db().select({ key: schema.idempotencyKeys.key }).from(schema.idempotencyKeys).where(eq(schema.idempotencyKeys.caller, `user:${owner.id}`));
    expect(keys.map((row) => row.key)).toEqual(["live"]);
  });

  it("deletes the hourly scan rollup past the stats' longest window and keeps the recent hours", async () => {
    const hourOf = (date: Date) => new Date(Math.floor(date.getTime() / HOUR) * HOUR);
    const oldHour = hourOf(ago(ROLLUP_HOURS_KEPT_DAYS + 1));
    const recentHour = hourOf(ago(ROLLUP_HOURS_KEPT_DAYS - 1));
    const metric = `retention-test-${randomUUID()}`;
    await db().insert(schema.rollupHours).values([
      { hour: oldHour, metric, shard: 0, n: 5 },
      { hour: recentHour, metric, shard: 0, n: 3 },
    ]);

    const report = await runRetention(db());

    expect(report.steps.scanHoursDeleted!.rows).toBeGreaterThanOrEqual(1);
    const left = await db().select({ hour: schema.rollupHours.hour }).from(schema.rollupHours).where(eq(schema.rollupHours.metric, metric));
    expect(left.map((row) => row.hour.toISOString())).toEqual([recentHour.toISOString()]);
  });

  it("runs as the daily job that pg-boss's cron starts, on the configured schedule", async () => {
    const schedules = rowsOf<{ name: string; cron: string; timezone: string }>(await db().execute(sql`select name, cron, timezone from ${sql.raw(JOBS_SCHEMA)}.schedule where name = 'retention.run'`));
    expect(schedules).toEqual([{ name: "retention.run", cron: retentionSettings().schedule!, timezone: "UTC" }]);
    expect(retentionSettings().schedule).toBe("17 3 * * *");

    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    await seedScans(tag.id, [{ days: 420 }, { days: 420 }]);
    await enqueueJob(systemContext(db()), "retention.run", {});
    const report = await runPendingJobs({ name: "retention.run" });
    expect(report.runs.map((run) => run.status)).toEqual(["completed"]);
    expect(await scansOf(tag.id)).toHaveLength(0);
    expect((await rolledDays([tag.id])).reduce((sum, row) => sum + row.scans, 0)).toBe(2);
  });

  it("leaves the admin's stats and analytics as they were: they read rollups that deletes do not lower", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    await seedScans(tag.id, [{ days: 500 }, { days: 500, scanClass: "BOT" }, { days: 420, shared: true }, { days: 380 }, { days: 200 }, { days: 40 }, { days: 2 }]);
    const closed = await conversation(owner);
    await ageThread(closed.thread.id, "CLOSED", 400);
    await notify(owner.id, 200, true);
    const admin: ServiceContext = { actor: { kind: "user", userId: owner.id, role: "ADMIN", ip: "127.0.0.1" }, db: db() };
    const now = new Date();
    const day = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY).toISOString().slice(0, 10);
    const read = async () => ({
      stats: await getAdminStats(admin, now),
      lastYear: await getAdminAnalytics(admin, { from: day(365), to: day(0) }, now),
      yearBefore: await getAdminAnalytics(admin, { from: day(731), to: day(366) }, now),
    });
    const before = await read();
    // The old scans are in the year before (each test file has its own database: only this file's rows).
    expect(before.yearBefore.reduce((sum, day) => sum + day.scans, 0)).toBeGreaterThanOrEqual(4);
    const report = await runRetention(db(), { now });
    expect(report.steps.scansRolledUp!.rows).toBeGreaterThanOrEqual(3);
    expect(report.steps.closedConversationMessagesDeleted!.rows).toBeGreaterThanOrEqual(2);
    expect(await messagesOf(closed.thread.id)).toHaveLength(0);
    expect(await read()).toEqual(before);
  });

  it("states the periods in force on the privacy page", () => {
    const text = renderToStaticMarkup(PrivacyPage()).replaceAll("&#x27;", "'").replaceAll("&quot;", '"');
    expect(text).toContain("and erase it after 30 days");
    expect(text).toContain("After 13 months the scan itself is deleted: only a count of the tag's scans per day remains.");
    expect(text).toContain("12 months after a conversation was closed, its messages and that e-mail address are deleted.");
    expect(text).toContain("notifications you have read after 6 months");
    expect(text).toContain("our payment provider's processed notices after 90 days");
  });
});
