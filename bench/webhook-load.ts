/**
 * The payment webhook scenario, in this process (no server needed), with the job workers running as in a
 * server: signed events delivered through the real route handler (request id, rate limit, raw body,
 * signature, the inbox insert and its job in one transaction) at a steady rate (100 events/s for 10 s by
 * default), reporting the acknowledgement latency (p50, p99, max) and checking that every event id ended
 * up stored (zero lost) and processed; then one event delivered 10 times at once, which must leave exactly
 * one stored row and one job. On the embedded database and, when BENCH_DATABASE_URL (or DATABASE_URL) is
 * set, on a fresh PostgreSQL database created for the run and dropped after it.
 */
import { randomBytes } from "node:crypto";
import { inArray, sql } from "drizzle-orm";
import { connectPglite, setDatabase, type DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrator";
import { onScratchPostgres } from "./scratch-postgres";
import { paymentEvents } from "@/db/schema";
import { PEER_ADDRESS_HEADER } from "@/lib/http/client-ip";
import { startJobs, stopJobs } from "@/lib/jobs";
import { signPaymentPayload } from "@/lib/payments/signature";
import { paymentWebhookSecret } from "@/lib/secrets";

export interface WebhookLoadResult {
  database: "pglite" | "postgres";
  events: number;
  /** Answered 200 with duplicate: false. */
  acknowledged: number;
  stored: number;
  /** Stored rows no longer RECEIVED (IGNORED: the bench's event type has no handler) when the wait ended. */
  processed: number;
  lost: number;
  ratePerSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** The same event sent 10 times at once: stored rows and jobs for it (both must be 1). */
  duplicateRows: number;
  duplicateJobs: number;
  duplicateAnswers: string;
}

const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 10);
const WAIT_CAP_MS = 120_000;

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

function signedRequest(body: string): Request {
  return new Request("http://127.0.0.1:3000/api/v1/webhooks/payment", {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "payment-signature": signPaymentPayload(body, paymentWebhookSecret()), [PEER_ADDRESS_HEADER]: "192.0.2.10" },
  });
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
}

async function measure(handle: DatabaseHandle, webhook: Handler): Promise<WebhookLoadResult> {
  const run = randomBytes(4).toString("hex");
  const total = RATE * SECONDS;
  const ids = Array.from({ length: total }, (_, i) => `evt_bench_${run}_${i}`);
  const latencies: number[] = [];
  let acknowledged = 0;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (const [index, id] of ids.entries()) {
    // Paced: event i leaves at i / RATE seconds, whatever the answers' speed (an open-loop load, as a provider sends).
    const due = started + (index * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const body = JSON.stringify({ id, object: "event", type: "invoice.bench", created: Math.floor(Date.now() / 1000), data: { object: { id: `in_${run}_${index}`, amount_paid: 900, currency: "usd" } } });
    pending.push(
      (async () => {
        const t0 = performance.now();
        const response = await webhook(signedRequest(body), { params: Promise.resolve({}) });
        const answer = (await response.json()) as { data?: { duplicate?: boolean } };
        latencies.push(performance.now() - t0);
        if (response.status === 200 && answer.data?.duplicate === false) acknowledged++;
      })(),
    );
  }
  await Promise.all(pending);
  const sendSeconds = (performance.now() - started) / 1000;

  const stored = async () => (await handle.db.select({ id: paymentEvents.id, status: paymentEvents.status }).from(paymentEvents).where(inArray(paymentEvents.id, ids)));
  const deadline = Date.now() + WAIT_CAP_MS;
  let rows = await stored();
  while (Date.now() < deadline && rows.some((row) => row.status === "RECEIVED")) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    rows = await stored();
  }

  // One event, ten deliveries at the same moment.
  const duplicateId = `evt_bench_${run}_dup`;
  const duplicateBody = JSON.stringify({ id: duplicateId, object: "event", type: "invoice.bench", created: Math.floor(Date.now() / 1000), data: { object: { id: "in_dup" } } });
  const answers = await Promise.all(
    Array.from({ length: 10 }, async () => {
      const response = await webhook(signedRequest(duplicateBody), { params: Promise.resolve({}) });
      const answer = (await response.json()) as { data?: { duplicate?: boolean } };
      return `${response.status}${answer.data?.duplicate ? " dup" : " new"}`;
    }),
  );
  const duplicateRows = (await handle.db.select({ id: paymentEvents.id }).from(paymentEvents).where(inArray(paymentEvents.id, [duplicateId]))).length;
  const jobs = rowsOf(
    await handle.db.execute(
      sql`select (select count(*) from pgboss.job where name = 'payments.process-event' and data->>'eventId' = ${duplicateId})
            + (select count(*) from pgboss.archive where name = 'payments.process-event' and data->>'eventId' = ${duplicateId}) as n`,
    ),
  );
  const tally = new Map<string, number>();
  for (const answer of answers) tally.set(answer, (tally.get(answer) ?? 0) + 1);

  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    database: handle.kind,
    events: total,
    acknowledged,
    stored: rows.length,
    processed: rows.filter((row) => row.status !== "RECEIVED").length,
    lost: total - rows.length,
    ratePerSecond: round(total / sendSeconds),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? 0),
    duplicateRows,
    duplicateJobs: Number(jobs[0]?.n),
    duplicateAnswers: [...tally].map(([answer, n]) => `${n}× ${answer}`).join(", "),
  };
}

async function scenarioOn(handle: DatabaseHandle): Promise<WebhookLoadResult> {
  setDatabase(handle);
  await migrateDatabase(handle);
  await startJobs(handle);
  try {
    const { POST } = await import("@/app/api/v1/webhooks/payment/route");
    return await measure(handle, POST as Handler);
  } finally {
    await stopJobs({ timeoutMs: 5_000 });
  }
}

export async function webhookLoad(): Promise<WebhookLoadResult[]> {
  const results: WebhookLoadResult[] = [];
  const pglite = connectPglite();
  try {
    results.push(await scenarioOn(pglite));
  } finally {
    await pglite.close();
  }
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (postgresUrl) results.push(await onScratchPostgres(postgresUrl, scenarioOn));
  setDatabase(undefined);
  return results;
}
