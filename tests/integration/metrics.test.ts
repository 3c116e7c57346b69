import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { GET as healthRoute } from "@/app/api/health/route";
import { GET as getTagRoute } from "@/app/api/v1/tags/[id]/route";
import { GET as scanRoute } from "@/app/api/v1/scan/[encryptedId]/route";
import { POST as paymentWebhookRoute } from "@/app/api/v1/webhooks/payment/route";
import { getDatabase } from "@/db/client";
import { env } from "@/lib/env";
import { SCRAPE_DATABASE_DEADLINE_MS } from "@/lib/metrics/collect";
import { enqueueJob, prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { HOUR_MS } from "@/lib/ratelimit/policies";
import { resetRateLimiterForTests } from "@/lib/ratelimit";
import { systemContext, withTransaction } from "@/lib/services/context";
import { bearer, registerAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { eventId, signedHeaders, TEST_WEBHOOK_SECRET } from "../support/payments";
import { giveTestTag } from "../support/tags";
import { recordJob } from "../support/test-jobs";
import { USER_AGENTS } from "../support/user-agents";
import { usingPostgres } from "../support/database";

// GET /api/metrics as a scraper calls it, after real requests through the route handlers: the token's
// guard, the text format, and each metric's names and labels moving with what happened.

const TOKEN = "metrics-token-0123456789abcdef";
const settings = env as { METRICS_TOKEN?: string; PAYMENT_WEBHOOK_SECRET?: string };
const before = { token: settings.METRICS_TOKEN, webhookSecret: settings.PAYMENT_WEBHOOK_SECRET };

beforeAll(async () => {
  settings.METRICS_TOKEN = TOKEN;
  settings.PAYMENT_WEBHOOK_SECRET = TEST_WEBHOOK_SECRET;
  await prepareJobs();
});

afterAll(async () => {
  settings.METRICS_TOKEN = before.token;
  settings.PAYMENT_WEBHOOK_SECRET = before.webhookSecret;
  await stopJobs();
  resetRateLimiterForTests();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (no escapes in our label values). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

function scrapeRequest(headers: Record<string, string> = bearer(TOKEN)): Request {
  return apiRequest("/api/metrics", { headers });
}

async function scrape(): Promise<Sample[]> {
  const response = await metricsRoute(scrapeRequest());
  expect(response.status).toBe(200);
  return parse(await response.text());
}

/** The value of the one sample with this name and these labels (0 when absent: a counter not yet counted). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}

function has(samples: Sample[], name: string, labels: Record<string, string> = {}): boolean {
  return samples.some((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
}

describe("GET /api/metrics: the guard", () => {
  it("does not exist (404 in the envelope) while METRICS_TOKEN is unset, token or not", async () => {
    settings.METRICS_TOKEN = undefined;
    try {
      for (const headers of [{}, bearer(TOKEN), bearer("")]) {
        const response = await metricsRoute(scrapeRequest(headers));
        expect(response.status).toBe(404);
        expect(await json(response)).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
      }
    } finally {
      settings.METRICS_TOKEN = TOKEN;
    }
  });

  it("answers 401 with a Bearer challenge to a missing, wrong, near-miss or differently sent token", async () => {
    const attempts: Record<string, string>[] = [
      {},
      bearer("wrong-token-0123456789abcdef"),
      bearer(TOKEN.slice(0, -1)),
      bearer(`${TOKEN}x`),
      bearer(TOKEN.toUpperCase()),
      { Authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString("base64")}` },
      { Authorization: TOKEN },
      { "X-API-Key": TOKEN },
      { Authorization: `Bearer ${TOKEN} extra` },
    ];
    for (const headers of attempts) {
      const response = await metricsRoute(scrapeRequest(headers));
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await json(response)).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
    }
  });

  it("serves the Prometheus text format to the right token (any case of the scheme), never cached", async () => {
    for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `BEARER  ${TOKEN}`]) {
      const response = await metricsRoute(scrapeRequest({ Authorization: authorization }));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const text = await response.text();
      expect(text).toContain("# TYPE tagsvc_http_request_duration_seconds histogram");
      expect(() => parse(text)).not.toThrow();
    }
  });
});

describe("GET /api/metrics: what it reports", () => {
  it("lists every documented metric, with the instance's gauges set", async () => {
    const samples = await scrape();
    for (const name of [
      "tagsvc_db_breaker_open",
      "tagsvc_metrics_database_read_error",
      "tagsvc_metrics_database_read_age_seconds",
      "tagsvc_metrics_database_read_seconds",
      "tagsvc_payment_events_pending",
      "tagsvc_payment_inbox_lag_seconds",
      "tagsvc_payment_events_failed",
      "process_cpu_seconds_total",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(has(samples, name), name).toBe(true);
    }
    expect(valueOf(samples, "tagsvc_db_breaker_open")).toBe(0);
    expect(valueOf(samples, "tagsvc_metrics_database_read_error")).toBe(0);
    expect(has(samples, "tagsvc_live_streams", { kind: "notifications" })).toBe(true);
    expect(has(samples, "tagsvc_live_streams", { kind: "thread" })).toBe(true);
    expect(has(samples, "tagsvc_email_backlog", { priority: "transactional" })).toBe(true);
    expect(has(samples, "tagsvc_email_backlog", { priority: "bulk" })).toBe(true);
    // Every catalog queue has its gauges, 0 when empty.
    for (const name of ["tagsvc_jobs_waiting", "tagsvc_jobs_deferred", "tagsvc_jobs_oldest_waiting_seconds", "tagsvc_jobs_active", "tagsvc_jobs_failed"]) {
      expect(has(samples, name, { queue: "email.send" }), name).toBe(true);
      expect(has(samples, name, { queue: "payments.process-event" }), name).toBe(true);
    }
    if (usingPostgres()) {
      expect(valueOf(samples, "tagsvc_db_pool_max")).toBe((getDatabase() as { sql: { options: { max: number } } }).sql.options.max);
      expect(valueOf(samples, "tagsvc_db_pool_in_use")).toBeGreaterThanOrEqual(0);
      expect(valueOf(samples, "tagsvc_db_pool_waiting")).toBe(0);
    }
  });

  it("counts each API request in the duration histogram under its route template, method and status", async () => {
    const account = await registerAccount();
    const tag = await giveTestTag(account.id);
    const missing = "00000000-0000-4000-8000-000000000000";
    const labelsOk = { route: "/api/v1/tags/{id}", method: "GET", status: "200" };
    const labelsMissing = { route: "/api/v1/tags/{id}", method: "GET", status: "404" };
    const labelsAnonymous = { route: "/api/v1/tags/{id}", method: "GET", status: "401" };
    const countName = "tagsvc_http_request_duration_seconds_count";
    const first = await scrape();

    for (const id of [tag.id, tag.id, missing]) {
      await call(getTagRoute, apiRequest(`/api/v1/tags/${id}`, { headers: bearer(account.accessToken) }), { id });
    }
    await call(getTagRoute, apiRequest(`/api/v1/tags/${tag.id}`), { id: tag.id });
    expect((await call(healthRoute, apiRequest("/api/health"))).status).toBe(200);

    const second = await scrape();
    expect(valueOf(second, countName, labelsOk) - valueOf(first, countName, labelsOk)).toBe(2);
    expect(valueOf(second, countName, labelsMissing) - valueOf(first, countName, labelsMissing)).toBe(1);
    expect(valueOf(second, countName, labelsAnonymous) - valueOf(first, countName, labelsAnonymous)).toBe(1);
    expect(valueOf(second, countName, { route: "/api/health", method: "GET", status: "200" })).toBeGreaterThanOrEqual(1);
    // The histogram's buckets and sum are there, and no raw path became a label value.
    expect(valueOf(second, "tagsvc_http_request_duration_seconds_bucket", { ...labelsOk, le: "+Inf" })).toBe(valueOf(second, countName, labelsOk));
    expect(valueOf(second, "tagsvc_http_request_duration_seconds_sum", labelsOk)).toBeGreaterThan(0);
    const routes = new Set(second.filter((sample) => sample.name === countName).map((sample) => sample.labels.route));
    expect([...routes].filter((route) => route?.includes(tag.id) || route?.includes(missing))).toEqual([]);
  });

  it("counts rate-limit refusals by the policy that refused", async () => {
    resetRateLimiterForTests({ general: { limit: 2, windowMs: HOUR_MS } });
    try {
      const name = "tagsvc_rate_limit_refusals_total";
      const first = await scrape();
      const ip = nextTestIp();
      const missing = "00000000-0000-4000-8000-000000000001";
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await call(getTagRoute, apiRequest(`/api/v1/tags/${missing}`, { ip }), { id: missing })).status);
      expect(statuses).toEqual([401, 401, 429, 429, 429]);
      const second = await scrape();
      expect(valueOf(second, name, { policy: "general" }) - valueOf(first, name, { policy: "general" })).toBe(3);
      const refused = { route: "/api/v1/tags/{id}", method: "GET", status: "429" };
      expect(valueOf(second, "tagsvc_http_request_duration_seconds_count", refused) - valueOf(first, "tagsvc_http_request_duration_seconds_count", refused)).toBe(3);
    } finally {
      resetRateLimiterForTests();
    }
  });

  it("reports a queue's depth and age from the database, and the job's run once it has run", async () => {
    const key = `metrics-${Date.now()}`;
    const queue = { queue: recordJob.name };
    const first = await scrape();
    expect(valueOf(first, "tagsvc_jobs_waiting", queue)).toBe(0);

    await withTransaction(systemContext(), async (tx) => {
      await enqueueJob(tx, recordJob, { key, note: "one" });
      await enqueueJob(tx, recordJob, { key, note: "two" });
      await enqueueJob(tx, recordJob, { key, note: "later" }, { startAfter: 3600 });
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const waiting = await scrape();
    expect(valueOf(waiting, "tagsvc_jobs_waiting", queue)).toBe(2);
    expect(valueOf(waiting, "tagsvc_jobs_deferred", queue)).toBe(1);
    expect(valueOf(waiting, "tagsvc_jobs_oldest_waiting_seconds", queue)).toBeGreaterThan(0);
    expect(valueOf(waiting, "tagsvc_jobs_oldest_waiting_seconds", queue)).toBeLessThan(60);

    const report = await runPendingJobs({ name: recordJob.name });
    expect(report.completed).toBe(2);
    const after = await scrape();
    expect(valueOf(after, "tagsvc_jobs_waiting", queue)).toBe(0);
    expect(valueOf(after, "tagsvc_jobs_deferred", queue)).toBe(1);
    expect(valueOf(after, "tagsvc_jobs_oldest_waiting_seconds", queue)).toBe(0);
    const runs = { queue: recordJob.name, outcome: "completed" };
    expect(valueOf(after, "tagsvc_job_duration_seconds_count", runs) - valueOf(first, "tagsvc_job_duration_seconds_count", runs)).toBe(2);
  });

  it("reports the e-mail backlog a real registration leaves, as transactional mail", async () => {
    const first = await scrape();
    await registerAccount();
    const second = await scrape();
    expect(valueOf(second, "tagsvc_email_backlog", { priority: "transactional" }) - valueOf(first, "tagsvc_email_backlog", { priority: "transactional" })).toBe(1);
    expect(valueOf(second, "tagsvc_email_backlog", { priority: "bulk" })).toBe(0);

    const sent = { transport: "outbox", outcome: "sent" };
    await runPendingJobs({ name: "email.send" });
    const third = await scrape();
    expect(valueOf(third, "tagsvc_email_backlog", { priority: "transactional" })).toBe(0);
    expect(valueOf(third, "tagsvc_emails_sent_total", sent) - valueOf(second, "tagsvc_emails_sent_total", sent)).toBeGreaterThanOrEqual(1);
  });

  it("reports the payment webhook inbox: an event received and not processed is pending, with its lag", async () => {
    const first = await scrape();
    expect(valueOf(first, "tagsvc_payment_events_pending")).toBe(0);
    expect(valueOf(first, "tagsvc_payment_inbox_lag_seconds")).toBe(0);
    const body = JSON.stringify({ id: eventId(), type: "customer.subscription.updated", created: Math.floor(Date.now() / 1000), data: { object: { id: "sub_metrics" } } });
    const delivered = await call(paymentWebhookRoute, apiRequest("/api/v1/webhooks/payment", { method: "POST", rawBody: body, headers: signedHeaders(body), ip: "198.18.0.77" }));
    expect(delivered.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await scrape();
    expect(valueOf(second, "tagsvc_payment_events_pending")).toBe(1);
    expect(valueOf(second, "tagsvc_payment_inbox_lag_seconds")).toBeGreaterThan(0);
    expect(valueOf(second, "tagsvc_jobs_waiting", { queue: "payments.process-event" })).toBe(1);
  });

  it.runIf(usingPostgres())("shows the pool's use and, when the pool is taken, answers within the deadline with the last values and the error gauge", async () => {
    const last = await scrape();
    expect(valueOf(last, "tagsvc_metrics_database_read_error")).toBe(0);
    const size = valueOf(last, "tagsvc_db_pool_max");
    expect(size).toBeGreaterThanOrEqual(1);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // As many open transactions as the pool has connections: the scrape's read finds none free.
    const opened: Promise<void>[] = [];
    const transactions = Array.from({ length: size }, () => {
      let holding: () => void = () => {};
      opened.push(new Promise<void>((resolve) => (holding = resolve)));
      return getDatabase().db.transaction(async () => {
        holding();
        await held;
      });
    });
    try {
      await Promise.all(opened);
      const started = performance.now();
      const during = await scrape();
      const took = performance.now() - started;
      expect(took).toBeLessThan(SCRAPE_DATABASE_DEADLINE_MS + 1_000);
      expect(valueOf(during, "tagsvc_metrics_database_read_error")).toBe(1);
      expect(valueOf(during, "tagsvc_db_pool_in_use")).toBe(size);
      expect(valueOf(during, "tagsvc_db_pool_waiting")).toBe(1);
      expect(valueOf(during, "tagsvc_metrics_database_read_age_seconds")).toBeGreaterThanOrEqual(1.5);
      // What was known before is still served.
      expect(valueOf(during, "tagsvc_payment_events_pending")).toBe(valueOf(last, "tagsvc_payment_events_pending"));
      expect(has(during, "tagsvc_jobs_waiting", { queue: "email.send" })).toBe(true);
    } finally {
      release();
      await Promise.all(transactions);
    }
    const after = await scrape();
    expect(valueOf(after, "tagsvc_metrics_database_read_error")).toBe(0);
    expect(valueOf(after, "tagsvc_db_pool_waiting")).toBe(0);
  });

  it("counts scans by their class", async () => {
    const account = await registerAccount();
    const tag = await giveTestTag(account.id);
    const name = "tagsvc_scans_total";
    const first = await scrape();
    const scan = (userAgent: string, headers: Record<string, string> = {}) =>
      call(scanRoute, apiRequest(`/api/v1/scan/${tag.encryptedId}`, { headers: { "user-agent": userAgent, ...headers }, ip: nextTestIp() }), { encryptedId: tag.encryptedId });
    expect((await scan(USER_AGENTS.googlebot)).status).toBe(200);
    expect((await scan(USER_AGENTS.iphoneSafari)).status).toBe(200);
    expect((await scan(USER_AGENTS.androidChrome, bearer(account.accessToken))).status).toBe(200);
    const second = await scrape();
    for (const scanClass of ["BOT", "REAL", "OWNER"]) {
      expect(valueOf(second, name, { class: scanClass }) - valueOf(first, name, { class: scanClass }), scanClass).toBe(1);
    }
  });
});
