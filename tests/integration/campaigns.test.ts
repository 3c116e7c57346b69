import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, count, eq, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/admin/campaigns/route";
import { GET as getRoute } from "@/app/api/v1/admin/campaigns/[id]/route";
import { POST as unsubscribeRoute } from "@/app/api/v1/contact/newsletter/unsubscribe/route";
import { createElement } from "react";
import { NoticeEmail } from "@/emails/notice";
import { EMAIL_SEND_JOB, queueEmail } from "@/lib/email/queue";
import { JOBS_SCHEMA, prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { resumeCampaigns, sendCampaignBatch } from "@/lib/services/campaigns";
import { systemContext, withTransaction } from "@/lib/services/context";
import { bearer, registerAccount, setRole, type TestAccount } from "../support/auth";
import { isPagePath, linkedPaths } from "../support/page-routes";
import { apiRequest, call, json, nextTestIp } from "../support/http";

const BATCH_JOB = "campaigns.send-batch";
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

type Campaign = { id: string; subject: string; status: string; recipientCount: number; sentCount: number; createdAt: string; startedAt: string | null; completedAt: string | null };
type ErrorBody = { success: false; error: { code: string; details?: { fieldErrors: Record<string, string[]> } } };

let admin: TestAccount;

beforeAll(async () => {
  await prepareJobs();
  admin = await registerAccount();
  await setRole(admin.id, "ADMIN");
});

afterAll(async () => {
  await stopJobs();
});

beforeEach(async () => {
  // Each test has its own subscribers and nothing left running from the one before.
  await runPendingJobs({ limit: 2000, ignoreStartAfter: true });
  const { db } = getDatabase();
  await db.delete(schema.newsletterSubscribers);
  await db.delete(schema.emailOutbox);
});

const auth = (account: TestAccount | null) => (account ? bearer(account.accessToken) : {});
const create = (account: TestAccount | null, body: unknown) => call(createRoute, apiRequest("/api/v1/admin/campaigns", { method: "POST", headers: auth(account), body, ip: nextTestIp() }));
const list = (account: TestAccount | null, query = "") => call(listRoute, apiRequest(`/api/v1/admin/campaigns${query}`, { headers: auth(account), ip: nextTestIp() }));
const getOne = (account: TestAccount | null, id: string) => call(getRoute, apiRequest(`/api/v1/admin/campaigns/${id}`, { headers: auth(account), ip: nextTestIp() }), { id });

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = await json<ErrorBody>(response);
  expect(body).toMatchObject({ success: false, error: { code } });
  return body.error;
}

/** Subscribers straight in the table: `n` addresses `<prefix>-000@…` in order, with a status. */
async function addSubscribers(prefix: string, n: number, status: "PENDING" | "CONFIRMED" | "UNSUBSCRIBED" = "CONFIRMED") {
  const rows = Array.from({ length: n }, (_, i) => ({ email: `${prefix}-${String(i).padStart(3, "0")}@example.com`, status, confirmedAt: status === "CONFIRMED" ? new Date() : null }));
  return getDatabase().db.insert(schema.newsletterSubscribers).values(rows).returning();
}

async function createCampaign(subject = "Spring news", content = "## New colours\n\nTags now come in **five colours**.") {
  const response = await create(admin, { subject, content });
  expect(response.status).toBe(201);
  return (await json<{ data: Campaign }>(response)).data;
}

async function sendEmails() {
  const report = await runPendingJobs({ name: EMAIL_SEND_JOB, limit: 2000 });
  expect(report.failed).toBe(0);
}

/** How many campaign e-mails each address received. */
async function receivedBy(subject: string): Promise<Map<string, number>> {
  const rows = await getDatabase()
    .db.select({ to: schema.emailOutbox.to, n: count() })
    .from(schema.emailOutbox)
    .where(eq(schema.emailOutbox.subject, subject))
    .groupBy(schema.emailOutbox.to);
  return new Map(rows.map((row) => [row.to, row.n]));
}

async function campaignRow(id: string) {
  const [row] = await getDatabase().db.select().from(schema.campaigns).where(eq(schema.campaigns.id, id));
  return row!;
}

describe("POST /admin/campaigns: who may send", () => {
  it("is 401 without a credential, 403 for a USER, 201 for an ADMIN and a SUPER_ADMIN (audited)", async () => {
    await addSubscribers("roles", 2);
    await expectError(await create(null, { subject: "Hi", content: "Hello" }), 401, "UNAUTHORIZED");
    const user = await registerAccount();
    await expectError(await create(user, { subject: "Hi", content: "Hello" }), 403, "FORBIDDEN");
    await expectError(await list(user), 403, "FORBIDDEN");
    await expectError(await getOne(user, MISSING_ID), 403, "FORBIDDEN");
    await expectError(await list(null), 401, "UNAUTHORIZED");

    const campaign = await createCampaign("For admins");
    expect(campaign).toEqual({
      id: expect.any(String),
      subject: "For admins",
      status: "SENDING",
      recipientCount: 2,
      sentCount: 0,
      createdAt: expect.any(String),
      startedAt: expect.any(String),
      completedAt: null,
    });
    const superAdmin = await registerAccount();
    await setRole(superAdmin.id, "SUPER_ADMIN");
    const bySuper = await create(superAdmin, { subject: "From the top", content: "Hello" });
    expect(bySuper.status).toBe(201);

    const [entry] = await getDatabase()
      .db.select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "campaign.create"), eq(schema.auditLog.entityId, campaign.id)));
    expect(entry).toMatchObject({ actorId: admin.id, entityType: "campaign", before: null });
    expect(entry!.after).toMatchObject({ subject: "For admins", recipientCount: 2 });
  });

  it("validates the subject and content (400) and refuses a campaign with no confirmed subscriber (422)", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ content: "Hello" }, "subject"],
      [{ subject: "  ", content: "Hello" }, "subject"],
      [{ subject: "x".repeat(151), content: "Hello" }, "subject"],
      [{ subject: "Hi\r\nBcc: victim@example.com", content: "Hello" }, "subject"],
      [{ subject: "Hi" }, "content"],
      [{ subject: "Hi", content: "x".repeat(100_001) }, "content"],
    ];
    for (const [body, field] of cases) {
      const error = await expectError(await create(admin, body), 400, "VALIDATION_ERROR");
      expect(error.details!.fieldErrors[field]).toBeDefined();
    }
    await addSubscribers("nobody", 2, "PENDING");
    await expectError(await create(admin, { subject: "To no one", content: "Hello" }), 422, "UNPROCESSABLE_ENTITY");
    expect((await getDatabase().db.select({ n: count() }).from(schema.campaigns).where(eq(schema.campaigns.subject, "To no one")))[0]!.n).toBe(0);
  });
});

describe("sending", () => {
  it("goes to CONFIRMED subscribers only, with an unsubscribe link and List-Unsubscribe headers; an unsubscriber gets no later campaign", async () => {
    const confirmed = await addSubscribers("only-yes", 3);
    await addSubscribers("only-pending", 2, "PENDING");
    await addSubscribers("only-gone", 2, "UNSUBSCRIBED");
    const campaign = await createCampaign("Only confirmed", "Hello **readers**. <script>alert(1)</script>");
    expect(campaign.recipientCount).toBe(3);
    await runPendingJobs({ name: BATCH_JOB });
    // A campaign's e-mails are bulk: a transactional e-mail queued after them still goes out first.
    await withTransaction(systemContext(), (tx) =>
      queueEmail(tx, { to: "transactional@example.com", subject: "Your sign-in link", template: createElement(NoticeEmail, { heading: "Sign in", paragraphs: ["Here."] }), templateName: "auth.notice" }),
    );
    const firstSent = await runPendingJobs({ name: EMAIL_SEND_JOB, limit: 1 });
    expect(firstSent.runs.map((run) => (run.data as { to: string }).to)).toEqual(["transactional@example.com"]);
    await sendEmails();
    const received = await receivedBy("Only confirmed");
    expect([...received.keys()].sort()).toEqual(confirmed.map((row) => row.email).sort());

    const [message] = await getDatabase().db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.to, confirmed[0]!.email));
    expect(message!.html).toContain("<strong>readers</strong>");
    expect(message!.html).not.toContain("<script>");
    expect(message!.text).toMatch(/\/newsletter\/unsubscribe\?token=/);
    expect(message!.html).toMatch(/\/newsletter\/unsubscribe\?token=/);
    expect(linkedPaths(message!.text, "http://localhost:3000")).toContain("/newsletter/unsubscribe");
    for (const path of linkedPaths(message!.text, "http://localhost:3000")) expect(isPagePath(path), path).toBe(true);
    expect(message!.headers!["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const header = message!.headers!["List-Unsubscribe"]!;
    expect(header).toMatch(/^<http:\/\/localhost:3000\/api\/v1\/contact\/newsletter\/unsubscribe\?token=[^>]+>$/);

    // The mail provider's one-click POST to the header's URL.
    const url = new URL(header.slice(1, -1));
    const oneClick = await call(
      unsubscribeRoute,
      apiRequest(url.pathname + url.search, { method: "POST", ip: nextTestIp(), headers: { "content-type": "application/x-www-form-urlencoded" }, rawBody: "List-Unsubscribe=One-Click" }),
    );
    expect(oneClick.status).toBe(200);

    const after = await getOne(admin, campaign.id);
    expect((await json<{ data: Campaign }>(after)).data).toMatchObject({ status: "SENT", recipientCount: 3, sentCount: 3, completedAt: expect.any(String) });

    await createCampaign("The next one");
    await runPendingJobs({ name: BATCH_JOB });
    await sendEmails();
    const next = await receivedBy("The next one");
    expect(next.has(confirmed[0]!.email)).toBe(false);
    expect(next.size).toBe(2);
  });

  it("skips a subscriber who unsubscribes after the campaign was created", async () => {
    const rows = await addSubscribers("late-out", 3);
    const campaign = await createCampaign("Late unsubscribe");
    await getDatabase().db.update(schema.newsletterSubscribers).set({ status: "UNSUBSCRIBED" }).where(eq(schema.newsletterSubscribers.id, rows[1]!.id));
    await runPendingJobs({ name: BATCH_JOB });
    await sendEmails();
    expect((await receivedBy("Late unsubscribe")).has(rows[1]!.email)).toBe(false);
    const row = await campaignRow(campaign.id);
    expect(row).toMatchObject({ status: "SENT", sentCount: 2, recipientCount: 3 });
    const [skipped] = await getDatabase()
      .db.select()
      .from(schema.campaignDeliveries)
      .where(and(eq(schema.campaignDeliveries.campaignId, campaign.id), eq(schema.campaignDeliveries.subscriberId, rows[1]!.id)));
    expect(skipped!.status).toBe("SKIPPED");
  });

  it("sends 120 subscribers in 3 batches of at most 50, showing progress in between", async () => {
    await addSubscribers("batch", 120);
    const campaign = await createCampaign("Batches");
    expect(campaign.recipientCount).toBe(120);

    const first = await runPendingJobs({ name: BATCH_JOB, limit: 1 });
    expect(first.completed).toBe(1);
    const progress = (await json<{ data: Campaign }>(await getOne(admin, campaign.id))).data;
    expect(progress).toMatchObject({ status: "SENDING", sentCount: 50, recipientCount: 120, completedAt: null });
    const listed = await list(admin);
    expect(listed.status).toBe(200);
    const page = await json<{ data: Campaign[]; meta: { total: number; page: number; totalPages: number } }>(listed);
    expect(page.data[0]).toMatchObject({ id: campaign.id, sentCount: 50 });

    const rest = await runPendingJobs({ name: BATCH_JOB });
    expect(rest.completed).toBe(2);
    expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENT", sentCount: 120 });
    await sendEmails();
    const received = await receivedBy("Batches");
    expect(received.size).toBe(120);
    expect([...received.values()].every((n) => n === 1)).toBe(true);
  });

  it("resumes after a crash mid-batch: the retry sends the rest and no address gets two e-mails", async () => {
    await addSubscribers("crash", 120);
    const { db } = getDatabase();
    // A batch dies half-way: queueing the e-mail to crash-075 (in the second batch) fails its transaction.
    await db.execute(
      sql.raw(`create or replace function test_campaign_crash() returns trigger language plpgsql as $$
        begin
          if new.name = 'email.send' and new.data->>'to' = 'crash-075@example.com' then raise exception 'simulated crash'; end if;
          return new;
        end $$`),
    );
    await db.execute(sql.raw(`create trigger test_campaign_crash before insert on ${JOBS_SCHEMA}.job for each row execute function test_campaign_crash()`));
    try {
      const campaign = await createCampaign("Crash and resume");
      const crashed = await runPendingJobs({ name: BATCH_JOB });
      expect(crashed.completed).toBe(1);
      expect(crashed.failed).toBe(1);
      expect(crashed.runs[1]!.error).toContain("simulated crash");
      // The failed batch left nothing behind: 50 sent, the rest still pending, 50 e-mails queued.
      expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENDING", sentCount: 50 });
      const [pending] = await db
        .select({ n: count() })
        .from(schema.campaignDeliveries)
        .where(and(eq(schema.campaignDeliveries.campaignId, campaign.id), eq(schema.campaignDeliveries.status, "PENDING")));
      expect(pending!.n).toBe(70);
      await sendEmails();
      expect((await receivedBy("Crash and resume")).size).toBe(50);

      await db.execute(sql.raw(`drop trigger test_campaign_crash on ${JOBS_SCHEMA}.job`));
      const retried = await runPendingJobs({ name: BATCH_JOB, ignoreStartAfter: true });
      expect(retried.failed).toBe(0);
      expect(retried.completed).toBe(2);
      expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENT", sentCount: 120 });
      await sendEmails();
      const received = await receivedBy("Crash and resume");
      expect(received.size).toBe(120);
      expect([...received.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await db.execute(sql.raw(`drop trigger if exists test_campaign_crash on ${JOBS_SCHEMA}.job`));
      await db.execute(sql.raw(`drop function if exists test_campaign_crash()`));
    }
  });

  it("sends each address once when 10 batch jobs of one campaign run at the same time, and a startup resume is harmless", async () => {
    await addSubscribers("race", 120);
    const campaign = await createCampaign("Concurrent batches");
    const results = await Promise.all(Array.from({ length: 10 }, () => sendCampaignBatch(systemContext(), campaign.id, 50)));
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(120);
    expect(await resumeCampaigns(systemContext())).toBeLessThanOrEqual(1);
    const report = await runPendingJobs({ name: BATCH_JOB, limit: 100 });
    expect(report.failed).toBe(0);
    expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENT", sentCount: 120, recipientCount: 120 });
    await sendEmails();
    const received = await receivedBy("Concurrent batches");
    expect(received.size).toBe(120);
    expect([...received.values()].every((n) => n === 1)).toBe(true);
  });
});

describe("GET /admin/campaigns and /admin/campaigns/{id}", () => {
  it("lists newest first with pagination, finds one by id, 404 for unknown and malformed ids, 400 for a bad limit", async () => {
    await addSubscribers("list", 1);
    const older = await createCampaign("Older");
    await new Promise((resolve) => setTimeout(resolve, 5));
    const newer = await createCampaign("Newer");
    const response = await list(admin, "?page=1&limit=1");
    expect(response.status).toBe(200);
    const body = await json<{ data: Campaign[]; meta: { total: number; page: number; totalPages: number } }>(response);
    expect(body.data.map((campaign) => campaign.id)).toEqual([newer.id]);
    expect(body.meta.page).toBe(1);
    expect(body.meta.total).toBeGreaterThanOrEqual(2);
    const second = await json<{ data: Campaign[] }>(await list(admin, "?page=2&limit=1"));
    expect(second.data[0]!.id).toBe(older.id);

    const one = await getOne(admin, older.id);
    expect(one.status).toBe(200);
    expect((await json<{ data: Campaign }>(one)).data).toMatchObject({ id: older.id, subject: "Older", recipientCount: 1 });
    await expectError(await getOne(admin, MISSING_ID), 404, "NOT_FOUND");
    await expectError(await getOne(admin, "not-a-uuid"), 404, "NOT_FOUND");
    await expectError(await list(admin, "?limit=101"), 400, "VALIDATION_ERROR");
    await expectError(await list(admin, "?page=0"), 400, "VALIDATION_ERROR");
  });
});
