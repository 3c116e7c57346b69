import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
});
