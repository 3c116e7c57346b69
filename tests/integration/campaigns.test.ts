import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, count, eq, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/admin/campaigns/route";
import { GET as getRoute } from "@/app/api/v1/admin/campaigns/[id]/route";
import { POST as unsubscribeRoute } from "@/app/api/v1/contact/newsletter/unsubscribe/route";
import { createElement } from "react";
import { NoticeEmail } from "@/emails/notice";
import { EMAIL_SEND_JOB, queueEmail } from "@/lib/email/queue";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { CAMPAIGN_MAX_DEFERRALS, resumeCampaigns, sendCampaignBatch } from "@/lib/services/campaigns";
import { EMAIL_BATCH_MAX, EmailBatchInvalidError } from "@/lib/email/batch";
import { createOutboxTransport } from "@/lib/email/outbox-transport";
import { createResendTransport, EmailDeliveryError } from "@/lib/email/resend-transport";
import type { EmailMessage } from "@/lib/email/types";
import { unsubscribeToken } from "@/lib/services/contact";
import { startLocalResend, type LocalResend } from "../support/resend-server";
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

  it("sends 250 subscribers in 3 batches of at most 100, showing progress in between", async () => {
    await addSubscribers("batch", 250);
    const campaign = await createCampaign("Batches");
    expect(campaign.recipientCount).toBe(250);

    const first = await runPendingJobs({ name: BATCH_JOB, limit: 1 });
    expect(first.completed).toBe(1);
    const progress = (await json<{ data: Campaign }>(await getOne(admin, campaign.id))).data;
    expect(progress).toMatchObject({ status: "SENDING", sentCount: 100, recipientCount: 250, completedAt: null });
    const listed = await list(admin);
    expect(listed.status).toBe(200);
    const page = await json<{ data: Campaign[]; meta: { total: number; page: number; totalPages: number } }>(listed);
    expect(page.data[0]).toMatchObject({ id: campaign.id, sentCount: 100 });

    const rest = await runPendingJobs({ name: BATCH_JOB });
    expect(rest.completed).toBe(2);
    expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENT", sentCount: 250 });
    // Campaign e-mail no longer goes through one email.send job each.
    expect((await runPendingJobs({ name: EMAIL_SEND_JOB })).runs).toHaveLength(0);
    const received = await receivedBy("Batches");
    expect(received.size).toBe(250);
    expect([...received.values()].every((n) => n === 1)).toBe(true);
  });

  it("resumes after a crash mid-batch: the retry sends the rest and no address gets two e-mails", async () => {
    await addSubscribers("crash", 250);
    const { db } = getDatabase();
    // The second batch (crash-100 … crash-199) dies after the provider took it: marking crash-175 SENT fails.
    await db.execute(
      sql.raw(`create or replace function test_campaign_crash() returns trigger language plpgsql as $$
        begin
          if new.status = 'SENT' and new.email = 'crash-175@example.com' then raise exception 'simulated crash'; end if;
          return new;
        end $$`),
    );
    await db.execute(sql.raw(`create trigger test_campaign_crash before update on campaign_deliveries for each row execute function test_campaign_crash()`));
    try {
      const campaign = await createCampaign("Crash and resume");
      const crashed = await runPendingJobs({ name: BATCH_JOB });
      expect(crashed.completed).toBe(1);
      expect(crashed.failed).toBe(1);
      // The job records the failed statement (the trigger's "simulated crash" is its cause).
      expect(crashed.runs[1]!.error).toContain('update "campaign_deliveries"');
      // The failed batch rolled back, its marks and (the outbox writing in its transaction) its e-mails.
      expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENDING", sentCount: 100 });
      const [pending] = await db
        .select({ n: count() })
        .from(schema.campaignDeliveries)
        .where(and(eq(schema.campaignDeliveries.campaignId, campaign.id), eq(schema.campaignDeliveries.status, "PENDING")));
      expect(pending!.n).toBe(150);
      expect((await receivedBy("Crash and resume")).size).toBe(100);

      await db.execute(sql.raw(`drop trigger test_campaign_crash on campaign_deliveries`));
      const retried = await runPendingJobs({ name: BATCH_JOB, ignoreStartAfter: true });
      expect(retried.failed).toBe(0);
      expect(retried.completed).toBe(2);
      expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENT", sentCount: 250 });
      const received = await receivedBy("Crash and resume");
      expect(received.size).toBe(250);
      expect([...received.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await db.execute(sql.raw(`drop trigger if exists test_campaign_crash on campaign_deliveries`));
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

describe("batch calls to the provider (a local Resend)", () => {
  let resend: LocalResend;
  beforeAll(async () => {
    resend = await startLocalResend();
  });
  afterAll(async () => {
    await resend.close();
  });
  beforeEach(() => resend.reset());

  const transport = () => createResendTransport({ apiKey: "re_test_key", baseUrl: resend.baseUrl });

  /** Runs the campaign's batches in a row, as its chained jobs would, until none is left. */
  async function sendAll(campaignId: string) {
    for (let i = 0; i < 20; i += 1) {
      const result = await sendCampaignBatch(systemContext(), campaignId, undefined, { transport: transport() });
      if (result.remaining === 0) return;
    }
    throw new Error("the campaign did not finish");
  }

  it("sends a 250-recipient campaign in 3 batch calls, each e-mail with its recipient's own unsubscribe link and headers", async () => {
    const subscribers = await addSubscribers("calls", 250);
    const campaign = await createCampaign("In three calls", "Hello **all**.");
    await sendAll(campaign.id);

    expect(resend.calls.map((call) => [call.path, call.status, call.emails])).toEqual([
      ["/emails/batch", 200, 100],
      ["/emails/batch", 200, 100],
      ["/emails/batch", 200, 50],
    ]);
    const keys = resend.calls.map((call) => call.headers["idempotency-key"]);
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).toMatch(new RegExp(`^campaign-${campaign.id}-[0-9a-f]{32}$`));

    expect(resend.sent).toHaveLength(250);
    expect(new Set(resend.sent.map((email) => email.to)).size).toBe(250);
    for (const subscriber of subscribers) {
      const email = resend.sent.find((sent) => sent.to === subscriber.email)!;
      const token = encodeURIComponent(unsubscribeToken(subscriber.id));
      expect(email.subject).toBe("In three calls");
      expect(email.html).toContain(`/newsletter/unsubscribe?token=${token}`);
      expect(email.text).toContain(`/newsletter/unsubscribe?token=${token}`);
      expect(email.html).toContain("<strong>all</strong>");
      expect(email.html).not.toContain("placeholder");
      expect(email.headers).toEqual({
        "List-Unsubscribe": `<http://localhost:3000/api/v1/contact/newsletter/unsubscribe?token=${token}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      });
    }
    expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENT", sentCount: 250, recipientCount: 250 });
  });

  it("retries a failed batch without sending anybody twice: a refused call, and a call whose answer was lost", async () => {
    await addSubscribers("retry", 250);
    const campaign = await createCampaign("Retried");
    const ctx = systemContext();
    await sendCampaignBatch(ctx, campaign.id, undefined, { transport: transport() });

    // Refused: nothing sent, the deliveries stay PENDING, the retry sends them.
    resend.failNext("refuse");
    const refused = await sendCampaignBatch(ctx, campaign.id, undefined, { transport: transport() }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EmailDeliveryError);
    expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENDING", sentCount: 100 });
    expect(resend.sent).toHaveLength(100);

    // Sent, but the answer never came back: the marks roll back, and the retry's key is the same one.
    resend.failNext("drop-after-send");
    const lost = await sendCampaignBatch(ctx, campaign.id, undefined, { transport: transport() }).catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(EmailDeliveryError);
    expect(resend.sent).toHaveLength(200);
    expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENDING", sentCount: 100 });

    await sendAll(campaign.id);
    expect(resend.sent).toHaveLength(250);
    const perAddress = new Map<string, number>();
    for (const email of resend.sent) perAddress.set(email.to, (perAddress.get(email.to) ?? 0) + 1);
    expect(perAddress.size).toBe(250);
    expect([...perAddress.values()].every((n) => n === 1)).toBe(true);
    const keys = resend.calls.map((call) => call.headers["idempotency-key"]);
    // Calls: batch 1; batch 2 refused, sent-and-lost, answered from the key; batch 3.
    expect(resend.calls.map((call) => call.status)).toEqual([200, 500, 200, 200, 200]);
    expect(keys[2]).toBe(keys[1]);
    expect(keys[3]).toBe(keys[1]);
    expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENT", sentCount: 250 });
  });

  it("validates a batch as Resend does: 1 to 100 e-mails, each complete; the local server, the transport and the outbox agree", async () => {
    const one = (i: number): EmailMessage => ({ from: "Tag Service <no-reply@tagservice.local>", to: `v-${i}@example.com`, subject: "Hi", html: "<p>Hi</p>", text: "Hi" });
    const many = Array.from({ length: EMAIL_BATCH_MAX + 1 }, (_, i) => one(i));
    for (const messages of [many, [], [{ ...one(0), subject: "" }], [{ ...one(0), to: "not-an-address" }]]) {
      await expect(transport().sendBatch(messages, { idempotencyKey: "k" })).rejects.toBeInstanceOf(EmailBatchInvalidError);
      await expect(createOutboxTransport().sendBatch(messages, { idempotencyKey: "k" })).rejects.toBeInstanceOf(EmailBatchInvalidError);
      const direct = await fetch(`${resend.baseUrl}/emails/batch`, { method: "POST", headers: { authorization: "Bearer re_test_key", "content-type": "application/json" }, body: JSON.stringify(messages) });
      expect(direct.status).toBe(422);
    }
    const noKey = await fetch(`${resend.baseUrl}/emails/batch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify([one(0)]) });
    expect(noKey.status).toBe(401);
    expect(resend.sent).toHaveLength(0);

    // A full batch goes; the same key with another body is refused (409), with the same body answered again.
    const full = many.slice(0, EMAIL_BATCH_MAX);
    const first = await transport().sendBatch(full, { idempotencyKey: "full" });
    expect(first.ids).toHaveLength(100);
    expect(await transport().sendBatch(full, { idempotencyKey: "full" })).toEqual(first);
    const conflict = await transport().sendBatch(full.slice(1), { idempotencyKey: "full" }).catch((error: unknown) => error);
    expect(conflict).toMatchObject({ statusCode: 409, providerCode: "invalid_idempotent_request" });
    expect(resend.sent).toHaveLength(100);

    // The outbox, the development transport, keeps a key too.
    const outbox = createOutboxTransport();
    const stored = await outbox.sendBatch(full.slice(0, 3), { idempotencyKey: "outbox-key" });
    expect(await outbox.sendBatch(full.slice(0, 3), { idempotencyKey: "outbox-key" })).toEqual(stored);
    expect((await receivedBy("Hi")).size).toBe(3);
  });
});

describe("transactional e-mail during a campaign", () => {
  const queueSignIn = (to: string) =>
    withTransaction(systemContext(), (tx) =>
      queueEmail(tx, { to, subject: "Your sign-in link", template: createElement(NoticeEmail, { heading: "Sign in", paragraphs: ["Here."] }), templateName: "auth.notice" }),
    );

  it("goes first: a campaign batch gives way while a transactional e-mail waits, then carries on", async () => {
    await addSubscribers("priority", 250);
    const campaign = await createCampaign("Behind the sign-in link");
    expect((await runPendingJobs({ name: BATCH_JOB, limit: 1 })).completed).toBe(1);
    await queueSignIn("transactional@example.com");

    // The next batch sends nothing while the sign-in e-mail waits, and queues itself again.
    const deferred = await runPendingJobs({ name: BATCH_JOB, limit: 1, ignoreStartAfter: true });
    expect(deferred.completed).toBe(1);
    expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENDING", sentCount: 100 });
    await sendEmails();
    expect((await runPendingJobs({ name: BATCH_JOB, ignoreStartAfter: true })).failed).toBe(0);
    expect(await campaignRow(campaign.id)).toMatchObject({ status: "SENT", sentCount: 250 });

    const outbox = await getDatabase()
      .db.select({ to: schema.emailOutbox.to, subject: schema.emailOutbox.subject, createdAt: schema.emailOutbox.createdAt })
      .from(schema.emailOutbox)
      .orderBy(schema.emailOutbox.createdAt);
    const order = outbox.map((row) => row.subject);
    const transactionalAt = order.indexOf("Your sign-in link");
    expect(transactionalAt).toBe(100);
    expect(order.filter((subject) => subject === "Behind the sign-in link")).toHaveLength(250);
  });

  it("gives way at most CAMPAIGN_MAX_DEFERRALS times in a row, so a steady stream of transactional e-mail cannot stall a campaign", async () => {
    await addSubscribers("stall", 3);
    const campaign = await createCampaign("Not stalled");
    await queueSignIn("waiting@example.com");
    const held = await sendCampaignBatch(systemContext(), campaign.id, undefined, { deferrals: CAMPAIGN_MAX_DEFERRALS - 1 });
    expect(held).toMatchObject({ sent: 0, deferred: true });
    const sent = await sendCampaignBatch(systemContext(), campaign.id, undefined, { deferrals: CAMPAIGN_MAX_DEFERRALS });
    expect(sent).toMatchObject({ sent: 3, remaining: 0 });
    expect((await receivedBy("Not stalled")).size).toBe(3);
    await sendEmails();
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
