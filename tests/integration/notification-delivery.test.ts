import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDatabase } from "@/db/client";
import { PUT as putPreferencesRoute } from "@/app/api/v1/notifications/preferences/route";
import { listMailbox } from "@/lib/email/mailbox";
import { getJob, JOBS_SCHEMA, prepareJobs, runPendingJobs, stopJobs, type JobRecord } from "@/lib/jobs";
import { systemContext } from "@/lib/services/context";
import { notify, type NotifyInput } from "@/lib/services/notifications/notify";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call } from "../support/http";

const EMAIL_JOB = "notifications.email";
const PUSH_JOB = "notifications.push";

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

interface StoredJob {
  record: JobRecord;
  startAfter: Date;
}

/** The delivery jobs pg-boss holds (live or archived) for one notification. */
async function jobsFor(name: string, notificationId: string): Promise<StoredJob[]> {
  const result: unknown = await getDatabase().db.execute(
    sql`select id, start_after from ${sql.raw(JOBS_SCHEMA)}.job where name = ${name} and data->>'notificationId' = ${notificationId}
        union all
        select id, start_after from ${sql.raw(JOBS_SCHEMA)}.archive where name = ${name} and data->>'notificationId' = ${notificationId}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ id: string; start_after: Date | string }>;
  const jobs: StoredJob[] = [];
  for (const row of rows) {
    const record = await getJob(name, row.id);
    expect(record).not.toBeNull();
    jobs.push({ record: record!, startAfter: new Date(row.start_after) });
  }
  return jobs;
}

async function setPreferences(account: TestAccount, body: unknown) {
  const response = await call(putPreferencesRoute, apiRequest("/api/v1/notifications/preferences", { method: "PUT", headers: bearer(account.accessToken), body }));
  expect(response.status).toBe(200);
}

function send(account: TestAccount, input: Omit<NotifyInput, "userId">) {
  return notify(systemContext(), { userId: account.id, ...input });
}

const scanned = (data: Record<string, unknown> = {}): Omit<NotifyInput, "userId"> => ({
  type: "TAG_SCANNED",
  title: "Your tag was scanned",
  body: "Someone scanned the tag on your Blue backpack.",
  data: { tagId: "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11", ...data },
});

const security: Omit<NotifyInput, "userId"> = { type: "SECURITY", title: "New sign-in to your account", body: "Your account was signed in from a new device." };

async function deliverEmails(options: { ignoreStartAfter?: boolean } = {}) {
  const report = await runPendingJobs({ name: EMAIL_JOB, ...options });
  expect(report.failed).toBe(0);
  return report;
}

/** "HH:00" in UTC, `offsetHours` from now. */
function utcHour(offsetHours: number): string {
  const hour = (new Date().getUTCHours() + offsetHours + 24) % 24;
  return `${String(hour).padStart(2, "0")}:00`;
}

/** Quiet hours around the present moment, in UTC: from an hour ago to two hours ahead. */
const quietNow = () => ({ quietHours: { start: utcHour(-1), end: utcHour(2), timeZone: "UTC" } });

describe("e-mail gating by preferences", () => {
  it("enqueues no e-mail for TAG_SCANNED when email.tagScanned is off, and nothing reaches the outbox", async () => {
    const account = await registerAccount();
    await setPreferences(account, { email: { tagScanned: false } });

    const notification = await send(account, scanned());
    expect(await jobsFor(EMAIL_JOB, notification.id)).toEqual([]);
    expect(await jobsFor(PUSH_JOB, notification.id)).toHaveLength(1);

    await deliverEmails({ ignoreStartAfter: true });
    expect(await listMailbox({ to: account.email })).toEqual([]);
  });

  it("still e-mails other types whose switch is on", async () => {
    const account = await registerAccount();
    await setPreferences(account, { email: { tagScanned: false } });
    const notification = await send(account, { type: "MESSAGE_RECEIVED", title: "A finder wrote to you", body: "Open the thread to reply." });
    expect(await jobsFor(EMAIL_JOB, notification.id)).toHaveLength(1);
  });

  it("always e-mails SECURITY, with every e-mail switch off", async () => {
    const account = await registerAccount();
    await setPreferences(account, { email: { tagScanned: false, messageReceived: false, statusChange: false, marketing: false } });

    const notification = await send(account, security);
    const [job] = await jobsFor(EMAIL_JOB, notification.id);
    expect(job?.record.state).toBe("created");

    await deliverEmails();
    expect((await getJob(EMAIL_JOB, job!.record.id))?.state).toBe("completed");
    const mail = await listMailbox({ to: account.email });
    expect(mail.map((message) => message.subject)).toEqual([security.title]);
  });

  it("delivers an e-mail that carries the notification's title and body", async () => {
    const account = await registerAccount();
    const input = scanned();
    await send(account, input);
    await deliverEmails();

    const [message, ...others] = await listMailbox({ to: account.email });
    expect(others).toEqual([]);
    expect(message?.subject).toBe(input.title);
    expect(message?.text).toContain(input.title);
    expect(message?.text).toContain(input.body);
    expect(message?.html).toContain(input.title);
    expect(message?.html).toContain(input.body);
  });
});

describe("push gating by preferences", () => {
  it("creates no push job for TAG_SCANNED when push.tagScanned is off", async () => {
    const account = await registerAccount();
    await setPreferences(account, { push: { tagScanned: false } });
    const notification = await send(account, scanned());
    expect(await jobsFor(PUSH_JOB, notification.id)).toEqual([]);
    expect(await jobsFor(EMAIL_JOB, notification.id)).toHaveLength(1);
  });

  it("creates no push job for MESSAGE_RECEIVED when push.messageReceived is off, but one for a status change", async () => {
    const account = await registerAccount();
    await setPreferences(account, { push: { messageReceived: false } });
    const message = await send(account, { type: "MESSAGE_RECEIVED", title: "A finder wrote to you", body: "Open the thread to reply." });
    expect(await jobsFor(PUSH_JOB, message.id)).toEqual([]);
    const status = await send(account, { type: "TAG_STATUS_CHANGED", title: "Tag marked lost", body: "Your tag is now LOST." });
    expect(await jobsFor(PUSH_JOB, status.id)).toHaveLength(1);
  });

  it("always pushes SECURITY, with every push switch off", async () => {
    const account = await registerAccount();
    await setPreferences(account, { push: { tagScanned: false, messageReceived: false, statusChange: false } });
    const notification = await send(account, security);
    const jobs = await jobsFor(PUSH_JOB, notification.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.record.state).toBe("created");
  });

  it("creates neither job when both channels are off, yet stores the notification", async () => {
    const account = await registerAccount();
    await setPreferences(account, { email: { statusChange: false }, push: { statusChange: false } });
    const notification = await send(account, { type: "REWARD_UPDATED", title: "Reward paid", body: "Your reward was paid." });
    expect(notification.id).toBeTruthy();
    expect(await jobsFor(EMAIL_JOB, notification.id)).toEqual([]);
    expect(await jobsFor(PUSH_JOB, notification.id)).toEqual([]);
  });
});

describe("quiet hours", () => {
  it("holds e-mail and push until the end of quiet hours", async () => {
    const account = await registerAccount();
    const preferences = quietNow();
    await setPreferences(account, preferences);
    const before = Date.now();

    const notification = await send(account, scanned({ tagStatus: "ACTIVE" }));
    const [email] = await jobsFor(EMAIL_JOB, notification.id);
    const [push] = await jobsFor(PUSH_JOB, notification.id);
    expect(email!.startAfter.getTime()).toBeGreaterThan(before + 60 * 60_000);
    expect(email!.startAfter.getTime()).toBeLessThanOrEqual(before + 2 * 60 * 60_000);
    expect(email!.startAfter.getUTCMinutes()).toBe(0);
    expect(email!.startAfter.getUTCHours()).toBe(Number(preferences.quietHours.end.slice(0, 2)));
    expect(push!.startAfter.getTime()).toBe(email!.startAfter.getTime());

    await deliverEmails();
    expect(await listMailbox({ to: account.email })).toEqual([]);
    expect((await getJob(EMAIL_JOB, email!.record.id))?.state).toBe("created");

    // Once the hold is over (simulated), the e-mail goes out.
    await deliverEmails({ ignoreStartAfter: true });
    expect((await listMailbox({ to: account.email })).map((message) => message.subject)).toEqual(["Your tag was scanned"]);
  });

  it("holds SECURITY e-mail too: it always goes, but not at night", async () => {
    const account = await registerAccount();
    await setPreferences(account, quietNow());
    const notification = await send(account, security);
    const [email] = await jobsFor(EMAIL_JOB, notification.id);
    expect(email!.startAfter.getTime()).toBeGreaterThan(Date.now());
  });

  it("sends a scan of a LOST tag at once despite quiet hours", async () => {
    const account = await registerAccount();
    await setPreferences(account, quietNow());
    const input = { ...scanned({ tagStatus: "LOST" }), title: "Your lost tag was scanned" };

    const notification = await send(account, input);
    const [email] = await jobsFor(EMAIL_JOB, notification.id);
    const [push] = await jobsFor(PUSH_JOB, notification.id);
    expect(email!.startAfter.getTime()).toBeLessThanOrEqual(Date.now());
    expect(push!.startAfter.getTime()).toBeLessThanOrEqual(Date.now());

    await deliverEmails();
    expect((await listMailbox({ to: account.email })).map((message) => message.subject)).toEqual([input.title]);
  });

  it("delivers at once outside quiet hours", async () => {
    const account = await registerAccount();
    await setPreferences(account, { quietHours: { start: utcHour(3), end: utcHour(5), timeZone: "UTC" } });
    const notification = await send(account, scanned());
    const [email] = await jobsFor(EMAIL_JOB, notification.id);
    expect(email!.startAfter.getTime()).toBeLessThanOrEqual(Date.now());
    await deliverEmails();
    expect(await listMailbox({ to: account.email })).toHaveLength(1);
  });
});
