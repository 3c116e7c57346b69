/**
 * The campaign scenario: a newsletter to BENCH_CAMPAIGN_ADDRESSES (5,000) confirmed subscribers, from the
 * first batch to the campaign marked SENT. Two runs on each database:
 *
 * - "jobs, outbox": the chained `campaigns.send-batch` jobs picked up by the job workers as in a server,
 *   the e-mails going to the outbox (the development transport): what the job pickup and the database cost.
 * - "local Resend, paced": the same batches, one after another as the chain runs them, sent through the
 *   Resend transport to the local Resend-compatible server (tests/support/resend-server.ts), paced at
 *   EMAIL_SEND_RATE calls a second (2, Resend's default) and the server refusing (429) any call over it:
 *   what the provider's rate limit costs.
 *
 * RESEND_API_KEY is cleared by bench/run.ts before this module loads, so nothing reaches a real provider.
 */
import { count, eq, sql } from "drizzle-orm";
import { connectPglite, setDatabase, type DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrator";
import { campaignDeliveries, campaigns, emailOutbox, newsletterSubscribers } from "@/db/schema";
import { createResendTransport } from "@/lib/email/resend-transport";
import { createSendPace } from "@/lib/email/send-pace";
import { enqueueJob, startJobs, stopJobs } from "@/lib/jobs";
import { sendCampaignBatch } from "@/lib/services/campaigns";
import { systemContext } from "@/lib/services/context";
import { startLocalResend } from "../tests/support/resend-server";
import { onScratchPostgres } from "./scratch-postgres";

export interface CampaignBenchResult {
  database: "pglite" | "postgres";
  run: "jobs, outbox" | "local Resend, paced";
  addresses: number;
  sent: number;
  /** Provider calls (the local Resend's; batches for the outbox). */
  calls: number;
  seconds: number;
  /** Calls the local Resend refused for going over the rate (must be 0). */
  refused: number;
}

const ADDRESSES = Number(process.env.BENCH_CAMPAIGN_ADDRESSES ?? 5_000);
const RATE = Number(process.env.EMAIL_SEND_RATE ?? 2);
const WAIT_CAP_MS = 300_000;

async function newCampaign(handle: DatabaseHandle, tag: string): Promise<string> {
  const { db } = handle;
  const stamp = `${tag}-${Date.now().toString(36)}`;
  const subscribers = await db
    .insert(newsletterSubscribers)
    .values(Array.from({ length: ADDRESSES }, (_, i) => ({ email: `${stamp}-${i}@bench.invalid`, status: "CONFIRMED" as const, confirmedAt: new Date() })))
    .returning({ id: newsletterSubscribers.id, email: newsletterSubscribers.email });
  const [campaign] = await db
    .insert(campaigns)
    .values({ subject: `Bench ${stamp}`, content: "## Spring news\n\nTags now come in **five colours**.", status: "SENDING", startedAt: new Date(), recipientCount: subscribers.length })
    .returning({ id: campaigns.id });
  await db.insert(campaignDeliveries).values(subscribers.map((row) => ({ campaignId: campaign!.id, subscriberId: row.id, email: row.email, status: "PENDING" as const })));
  // Only this campaign's subscribers stay confirmed, so the next run's campaign is its own.
  return campaign!.id;
}

async function retireSubscribers(handle: DatabaseHandle) {
  await handle.db.update(newsletterSubscribers).set({ status: "UNSUBSCRIBED" }).where(eq(newsletterSubscribers.status, "CONFIRMED"));
}

async function viaJobs(handle: DatabaseHandle): Promise<CampaignBenchResult> {
  const campaignId = await newCampaign(handle, "jobs");
  await startJobs(handle);
  try {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const started = performance.now();
    await enqueueJob(systemContext(handle.db), "campaigns.send-batch", { campaignId });
    const deadline = Date.now() + WAIT_CAP_MS;
    let row: { status: string; sentCount: number } | undefined;
    while (Date.now() < deadline) {
      [row] = await handle.db.select({ status: campaigns.status, sentCount: campaigns.sentCount }).from(campaigns).where(eq(campaigns.id, campaignId));
      if (row?.status === "SENT") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    const [outbox] = await handle.db.select({ n: count() }).from(emailOutbox).where(sql`${emailOutbox.subject} like 'Bench jobs-%'`);
    return { database: handle.kind, run: "jobs, outbox", addresses: ADDRESSES, sent: outbox?.n ?? 0, calls: Math.ceil((row?.sentCount ?? 0) / 100), seconds: Math.round(seconds * 10) / 10, refused: 0 };
  } finally {
    await stopJobs({ timeoutMs: 5_000 });
    await retireSubscribers(handle);
  }
}

async function viaLocalResend(handle: DatabaseHandle): Promise<CampaignBenchResult> {
  const campaignId = await newCampaign(handle, "resend");
  const resend = await startLocalResend({ ratePerSecond: RATE });
  // The pace as lib/email/transport.ts builds it, over an in-process one-second window.
  const window = { second: 0, used: 0 };
  const waitForSendSlot = createSendPace({
    takeSlot: async () => {
      const second = Math.floor(Date.now() / 1000);
      if (window.second !== second) Object.assign(window, { second, used: 0 });
      window.used += 1;
      return { allowed: window.used <= RATE, reset: second + 1 };
    },
  });
  const transport = createResendTransport({ apiKey: "re_bench_key", baseUrl: resend.baseUrl, waitForSendSlot });
  try {
    const started = performance.now();
    for (;;) {
      const result = await sendCampaignBatch(systemContext(handle.db), campaignId, undefined, { transport });
      if (result.remaining === 0) break;
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      database: handle.kind,
      run: "local Resend, paced",
      addresses: ADDRESSES,
      sent: resend.sent.length,
      calls: resend.calls.length,
      seconds: Math.round(seconds * 10) / 10,
      refused: resend.calls.filter((call) => call.status === 429).length,
    };
  } finally {
    await resend.close();
    await retireSubscribers(handle);
  }
}

async function runsOn(handle: DatabaseHandle): Promise<CampaignBenchResult[]> {
  setDatabase(handle);
  await migrateDatabase(handle);
  return [await viaJobs(handle), await viaLocalResend(handle)];
}

export async function campaignBench(): Promise<CampaignBenchResult[]> {
  const results: CampaignBenchResult[] = [];
  const pglite = connectPglite();
  try {
    results.push(...(await runsOn(pglite)));
  } finally {
    await pglite.close();
  }
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (postgresUrl) results.push(...(await onScratchPostgres(postgresUrl, runsOn)));
  setDatabase(undefined);
  return results;
}
