/**
 * The e-mail scenarios: 20 e-mails one by one (the start delay of a single job), then 200 enqueued at once, each by its own committed transaction (as 200
 * sign-ups or reset requests would), with the job workers running as they do in a server. Reports the
 * delay from each transaction's commit to the moment the transport took the message (p50, p99, max) and
 * the throughput, on the embedded database and, when BENCH_DATABASE_URL (or DATABASE_URL) is set, on a
 * fresh PostgreSQL database created for the run and dropped after it.
 *
 * The transport is the outbox (RESEND_API_KEY is cleared by bench/run.ts before this module loads): it
 * stamps each message when it is handed over, which is the moment measured.
 */
import { randomBytes } from "node:crypto";
import { createElement } from "react";
import { inArray } from "drizzle-orm";
import { connectPglite, setDatabase, type DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrator";
import { onScratchPostgres } from "./scratch-postgres";
import { emailOutbox } from "@/db/schema";
import { NoticeEmail } from "@/emails/notice";
import { queueEmail } from "@/lib/email/queue";
import { startJobs, stopJobs } from "@/lib/jobs";
import { systemContext, withTransaction } from "@/lib/services/context";

export interface EmailBurstResult {
  database: "pglite" | "postgres";
  /** "one-by-one": 20 e-mails 300 ms apart; "burst": 200 at once. */
  scenario: "one-by-one" | "burst";
  emails: number;
  delivered: number;
  p50: number;
  p99: number;
  max: number;
  /** E-mails handed to the transport per second, from the first commit to the last hand-over. */
  perSecond: number;
  /** From the first commit to the last hand-over, seconds. */
  seconds: number;
}

const BURST = Number(process.env.BENCH_EMAILS ?? 200);
/** Single e-mails, one after another: the start delay of a job on an otherwise quiet server. */
const TRICKLE = 20;
const TRICKLE_SPACING_MS = 300;
const WAIT_CAP_MS = 120_000;

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function benchEmail(to: string) {
  return {
    to,
    subject: "Reset your password",
    template: createElement(NoticeEmail, {
      heading: "Reset your password",
      paragraphs: ["A benchmark message."],
      action: { label: "Reset password", path: "/reset-password", token: randomBytes(32).toString("base64url") },
      reason: "Sent by npm run bench.",
    }),
    templateName: "bench.email",
  };
}

/** Sends `count` e-mails, each in its own committed transaction, all at once (spacingMs 0) or one every spacingMs. */
async function measure(handle: DatabaseHandle, scenario: EmailBurstResult["scenario"], count: number, spacingMs: number): Promise<EmailBurstResult> {
  const run = randomBytes(4).toString("hex");
  const recipients = Array.from({ length: count }, (_, i) => `${scenario}-${run}-${i}@bench.invalid`);
  const committedAt = new Map<string, number>();
  const send = async (to: string) => {
    await withTransaction(systemContext(handle.db), (tx) => queueEmail(tx, benchEmail(to)));
    committedAt.set(to, Date.now());
  };
  if (spacingMs === 0) {
    await Promise.all(recipients.map(send));
  } else {
    for (const to of recipients) {
      await send(to);
      await new Promise((resolve) => setTimeout(resolve, spacingMs));
    }
  }

  const deadline = Date.now() + WAIT_CAP_MS;
  let rows: { to: string; createdAt: Date }[] = [];
  while (Date.now() < deadline) {
    rows = await handle.db.select({ to: emailOutbox.to, createdAt: emailOutbox.createdAt }).from(emailOutbox).where(inArray(emailOutbox.to, recipients));
    if (rows.length >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const delays = rows.map((row) => row.createdAt.getTime() - committedAt.get(row.to)!).sort((a, b) => a - b);
  const firstCommit = Math.min(...committedAt.values());
  const lastHandOver = Math.max(...rows.map((row) => row.createdAt.getTime()));
  const seconds = (lastHandOver - firstCommit) / 1000;
  return {
    database: handle.kind,
    scenario,
    emails: count,
    delivered: rows.length,
    p50: percentile(delays, 50),
    p99: percentile(delays, 99),
    max: delays.at(-1) ?? 0,
    perSecond: Math.round((rows.length / seconds) * 10) / 10,
    seconds: Math.round(seconds * 100) / 100,
  };
}

async function scenariosOn(handle: DatabaseHandle): Promise<EmailBurstResult[]> {
  setDatabase(handle);
  await migrateDatabase(handle);
  await startJobs(handle);
  try {
    // The workers are idle and waiting for their next poll, as on a quiet server.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const trickle = await measure(handle, "one-by-one", TRICKLE, TRICKLE_SPACING_MS);
    const burst = await measure(handle, "burst", BURST, 0);
    return [trickle, burst];
  } finally {
    await stopJobs({ timeoutMs: 5_000 });
  }
}

export async function emailBurst(): Promise<EmailBurstResult[]> {
  const results: EmailBurstResult[] = [];
  const pglite = connectPglite();
  try {
    results.push(...(await scenariosOn(pglite)));
  } finally {
    await pglite.close();
  }
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (postgresUrl) results.push(...(await onScratchPostgres(postgresUrl, scenariosOn)));
  setDatabase(undefined);
  return results;
}
