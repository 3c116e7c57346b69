import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDatabase } from "@/db/client";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { systemContext, withTransaction } from "@/lib/services/context";
import { queueEmail, EMAIL_SEND_JOB } from "@/lib/email/queue";
import { listMailbox } from "@/lib/email/mailbox";
import { buildActionUrl } from "@/emails/links";
import { NoticeEmail } from "@/emails/notice";

class Rollback extends Error {}

const verification = (token: string) => (
  <NoticeEmail heading="Verify your e-mail" paragraphs={["Confirm your address."]} action={{ label: "Verify e-mail", path: "/verify-email", token }} />
);

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

// Tests run without RESEND_API_KEY (vitest.config.mts), so delivery goes to the outbox.
describe("queueEmail → email.send job → outbox", () => {
  it("delivers after the transaction commits, with the token link in both parts", async () => {
    await withTransaction(systemContext(), (tx) =>
      queueEmail(tx, { to: "queued@example.com", subject: "Verify your e-mail", template: verification("q1"), templateName: "auth.verify-email" }),
    );
    expect(await listMailbox({ to: "queued@example.com" })).toEqual([]);

    const report = await runPendingJobs({ name: EMAIL_SEND_JOB });
    expect(report.failed).toBe(0);
    const [message, ...rest] = await listMailbox({ to: "queued@example.com" });
    expect(rest).toEqual([]);
    const link = buildActionUrl("/verify-email", { token: "q1" });
    expect(message?.subject).toBe("Verify your e-mail");
    expect(message?.text).toContain(link);
    expect(message?.html).toContain(`href="${link}"`);
  });

  it("never keeps an e-mail's body (and the token in its links) in clear in the job tables", async () => {
    const token = `live-token-${Date.now().toString(36)}`;
    await withTransaction(systemContext(), (tx) =>
      queueEmail(tx, { to: "sealed@example.com", subject: "Verify your e-mail", template: verification(token), templateName: "auth.verify-email" }),
    );
    const storedRows = async () => {
      const result = await getDatabase().db.execute(sql`select data::text as data from pgboss.job where name = ${EMAIL_SEND_JOB} and data->>'to' = 'sealed@example.com'`);
      return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { data: string }[];
    };
    const queued = await storedRows();
    expect(queued).toHaveLength(1);
    expect(queued[0]!.data).not.toContain(token);
    expect(queued[0]!.data).toContain("sealedBody");

    expect((await runPendingJobs({ name: EMAIL_SEND_JOB })).failed).toBe(0);
    const [message] = await listMailbox({ to: "sealed@example.com" });
    expect(message?.text).toContain(token);
    for (const row of await storedRows()) expect(row.data).not.toContain(token);
  });

  it("sends nothing when the transaction rolls back", async () => {
    await expect(
      withTransaction(systemContext(), async (tx) => {
        await queueEmail(tx, { to: "rolled-back@example.com", subject: "Never", template: verification("q2"), templateName: "auth.verify-email" });
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    await runPendingJobs({ name: EMAIL_SEND_JOB, ignoreStartAfter: true });
    expect(await listMailbox({ to: "rolled-back@example.com" })).toEqual([]);
  });

  it("sends transactional e-mail before bulk e-mail queued earlier (a campaign's goes last)", async () => {
    await runPendingJobs({ name: EMAIL_SEND_JOB, ignoreStartAfter: true });
    await withTransaction(systemContext(), async (tx) => {
      for (const i of [1, 2, 3]) {
        await queueEmail(tx, { to: `bulk-${i}@example.com`, subject: "News", template: verification(`b${i}`), templateName: "newsletter.campaign", bulk: true });
      }
    });
    await withTransaction(systemContext(), (tx) =>
      queueEmail(tx, { to: "urgent@example.com", subject: "Verify your e-mail", template: verification("u1"), templateName: "auth.verify-email" }),
    );
    const report = await runPendingJobs({ name: EMAIL_SEND_JOB });
    const order = report.runs.map((run) => (run.data as { to: string }).to);
    // Jobs of one transaction share its time, so the three bulk ones come in any order among themselves.
    expect(order[0]).toBe("urgent@example.com");
    expect(order.slice(1).sort()).toEqual(["bulk-1@example.com", "bulk-2@example.com", "bulk-3@example.com"]);
  });
});
