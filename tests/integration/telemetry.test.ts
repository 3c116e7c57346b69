import { randomUUID } from "node:crypto";
import { trace } from "@opentelemetry/api";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as meRoute } from "@/app/api/v1/auth/me/route";
import { POST as sendVerificationRoute } from "@/app/api/v1/auth/send-verification/route";
import { getDatabase } from "@/db/client";
import { createResendTransport } from "@/lib/email/resend-transport";
import { enqueueJob, getJob, prepareJobs, runPendingJobs } from "@/lib/jobs";
import { enqueueJobs } from "@/lib/jobs/enqueue";
import { getMetrics } from "@/lib/metrics/registry";
import { systemContext } from "@/lib/services/context";
import { flushTelemetry, startTelemetry, stopTelemetry } from "@/lib/telemetry/sdk";
import { TRACE_DATA_KEY, tracingActive } from "@/lib/telemetry/tracing";
import { telemetryUserHash } from "@/lib/telemetry/user";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { closedPortUrl, startBlackHole, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver";
import { startLocalResend } from "../support/resend-server";
import { attemptsFor, recordJob } from "../support/test-jobs";

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;
const ERROR = 2;

/** Starts the SDK as instrumentation.ts does, from OTEL_* variables set only for the start (test files share the process). */
function startWith(variables: Record<string, string>) {
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    const running = startTelemetry();
    if (!running) throw new Error("telemetry did not start");
    return running;
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

async function dropped(reason: string): Promise<number> {
  const { values } = await getMetrics().otelSpansDropped.get();
  return values.find((entry) => entry.labels.reason === reason)?.value ?? 0;
}

function childrenOf(spans: ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] {
  return spans.filter((span) => span.traceId === parent.traceId && span.parentSpanId === parent.spanId);
}

/** Every attribute value of every span, as text: no raw id or address may appear in any of them. */
function allAttributeText(spans: ReceivedSpan[]): string {
  return spans.map((span) => JSON.stringify(span.attributes)).join("\n");
}

beforeAll(async () => {
  await prepareJobs();
});

afterEach(async () => {
  await stopTelemetry();
});

describe("tracing off (no OTLP endpoint)", () => {
  it("starts nothing, makes no spans, and leaves job data as enqueued", async () => {
    expect(startTelemetry({})).toBeUndefined();
    expect(tracingActive()).toBe(false);
    const account = await registerAccount();
    expect((await call(meRoute, apiRequest("/api/v1/auth/me", { headers: bearer(account.accessToken), ip: nextTestIp() }))).status).toBe(200);
    expect(trace.getActiveSpan()).toBeUndefined();

    const key = randomUUID();
    const id = await enqueueJob(systemContext(), recordJob, { key });
    expect((await getJob(recordJob, id))?.data).toEqual({ key });
    await runPendingJobs({ name: recordJob.name });
    expect(attemptsFor(key).map((attempt) => attempt.data)).toEqual([{ key }]);
  });
});

describe("tracing over OTLP/HTTP JSON", () => {
  let receiver: OtlpReceiver;
  let account: TestAccount;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    account = await registerAccount();
  });

  afterAll(async () => {
    await receiver.close();
  });

  const start = () =>
    startWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "20", OTEL_METRICS_EXPORTER: "none" });

  it("links a request, its statements, the job it enqueues and the job's own statements in one trace", async () => {
    start();
    const requestId = `trace-test-${randomUUID()}`;
    const response = await call(
      sendVerificationRoute,
      apiRequest("/api/v1/auth/send-verification", { method: "POST", headers: { ...bearer(account.accessToken), "x-request-id": requestId }, ip: nextTestIp() }),
    );
    expect(response.status).toBe(200);
    const report = await runPendingJobs({ name: "email.send" });
    expect(report.completed).toBeGreaterThanOrEqual(1);
    // The handler and the report see the job's data without the trace context.
    for (const run of report.runs) expect(run.data).not.toHaveProperty(TRACE_DATA_KEY);
    await flushTelemetry();

    const request = await receiver.waitForSpan((span) => span.name === "POST /api/v1/auth/send-verification" && span.attributes["http.request.id"] === requestId);
    expect(request.kind).toBe(SERVER);
    expect(request.parentSpanId).toBe("");
    expect(request.attributes).toMatchObject({
      "http.route": "/api/v1/auth/send-verification",
      "http.request.method": "POST",
      "http.response.status_code": 200,
      "user.hash": telemetryUserHash(account.id),
    });
    expect(request.attributes["user.hash"]).not.toBe(account.id);

    // The request's database statements are its children, with placeholders and no parameter values.
    const statements = childrenOf(receiver.spans, request).filter((span) => span.attributes["db.system.name"] === "postgresql");
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(statement.kind).toBe(CLIENT);
      expect(typeof statement.attributes["db.query.text"]).toBe("string");
      expect(statement.name).toBe(statement.attributes["db.operation.name"]);
    }
    expect(statements.some((statement) => /\$1/.test(String(statement.attributes["db.query.text"])))).toBe(true);

    // The enqueue is the request's child; the job's run is the enqueue's child, in the request's trace.
    const enqueue = childrenOf(receiver.spans, request).find((span) => span.name === "enqueue email.send");
    expect(enqueue?.kind).toBe(PRODUCER);
    const job = await receiver.waitForSpan((span) => span.name === "job email.send" && span.parentSpanId === enqueue!.spanId);
    expect(job.traceId).toBe(request.traceId);
    expect(job.kind).toBe(CONSUMER);
    expect(job.attributes).toMatchObject({ "job.name": "email.send", "job.attempt": 1, "job.outcome": "completed", "messaging.system": "pg-boss" });
    expect(childrenOf(receiver.spans, job).filter((span) => span.attributes["db.system.name"] === "postgresql").length).toBeGreaterThan(0);

    // Neither the account's id nor its address appears in any span (statement parameters included).
    const text = allAttributeText(receiver.spans.filter((span) => span.traceId === request.traceId));
    expect(text).not.toContain(account.id);
    expect(text).not.toContain(account.email);
    expect(request.resource["service.name"]).toBe("tag-service");
  });

  it("makes statement spans only inside an operation's span (not for start-up work or a scrape's read)", async () => {
    start();
    await getDatabase().db.execute(sql`select 1 as outside_any_span`);
    await trace.getTracer("test").startActiveSpan("an operation", async (span) => {
      await getDatabase().db.execute(sql`select 1 as inside_a_span`);
      span.end();
    });
    await flushTelemetry();
    await receiver.waitForSpan((span) => String(span.attributes["db.query.text"]).includes("inside_a_span"));
    expect(receiver.spans.filter((span) => String(span.attributes["db.query.text"]).includes("outside_any_span"))).toEqual([]);
  });

  it("continues a caller's trace from its traceparent header", async () => {
    start();
    const traceId = randomUUID().replaceAll("-", "");
    const parentId = randomUUID().replaceAll("-", "").slice(0, 16);
    const response = await call(meRoute, apiRequest("/api/v1/auth/me", { headers: { ...bearer(account.accessToken), traceparent: `00-${traceId}-${parentId}-01` }, ip: nextTestIp() }));
    expect(response.status).toBe(200);
    await flushTelemetry();
    const request = await receiver.waitForSpan((span) => span.name === "GET /api/v1/auth/me" && span.traceId === traceId);
    expect(request.parentSpanId).toBe(parentId);
    expect(request.attributes["http.response.status_code"]).toBe(200);
  });

  it("records each attempt of a job with its number and outcome, failures as errors", async () => {
    start();
    const key = randomUUID();
    const parent = await trace.getTracer("test").startActiveSpan("test parent", async (span) => {
      await enqueueJob(systemContext(), recordJob, { key, failTimes: 1 });
      span.end();
      return span.spanContext();
    });
    await runPendingJobs({ name: recordJob.name });
    expect(attemptsFor(key).map((attempt) => attempt.attempt)).toEqual([1, 2]);
    await flushTelemetry();
    const enqueue = await receiver.waitForSpan((span) => span.name === "enqueue test.record" && span.parentSpanId === parent.spanId);
    await receiver.waitForSpan((span) => span.name === "job test.record" && span.parentSpanId === enqueue.spanId && span.attributes["job.attempt"] === 2);
    const runs = receiver.spans.filter((span) => span.name === "job test.record" && span.parentSpanId === enqueue.spanId).sort((a, b) => Number(a.attributes["job.attempt"]) - Number(b.attributes["job.attempt"]));
    expect(runs.map((run) => [run.attributes["job.attempt"], run.attributes["job.outcome"], run.statusCode])).toEqual([
      [1, "failed", ERROR],
      [2, "completed", 0],
    ]);
  });

  it("gives a bulk enqueue one producer span, parent of every job it enqueued", async () => {
    start();
    const keys = [randomUUID(), randomUUID(), randomUUID()];
    const parent = await trace.getTracer("test").startActiveSpan("fan-out parent", async (span) => {
      // A run-time test job by name: enqueueJobs is typed for the catalog's names.
      await enqueueJobs(systemContext(), recordJob.name as Parameters<typeof enqueueJobs>[1], keys.map((key) => ({ data: { key } })) as never);
      span.end();
      return span.spanContext();
    });
    await runPendingJobs({ name: recordJob.name });
    for (const key of keys) expect(attemptsFor(key).map((attempt) => attempt.data)).toEqual([{ key }]);
    await flushTelemetry();
    const enqueue = await receiver.waitForSpan((span) => span.name === "enqueue test.record" && span.parentSpanId === parent.spanId);
    expect(enqueue.attributes["messaging.batch.message_count"]).toBe(3);
    expect(receiver.spans.filter((span) => span.name === "enqueue test.record" && span.parentSpanId === parent.spanId)).toHaveLength(1);
    const deadline = Date.now() + 5_000;
    const runs = () => receiver.spans.filter((span) => span.name === "job test.record" && span.parentSpanId === enqueue.spanId);
    while (runs().length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs()).toHaveLength(3);
  });

  it("traces a call to Resend as a client span of the work that makes it", async () => {
    start();
    const resend = await startLocalResend();
    try {
      const transport = createResendTransport({ apiKey: "re_test_key", baseUrl: resend.baseUrl });
      const parent = await trace.getTracer("test").startActiveSpan("send parent", async (span) => {
        await transport.send({ from: "Tags <tags@example.com>", to: "someone@example.com", subject: "Hello", html: "<p>Hi</p>", text: "Hi" });
        span.end();
        return span.spanContext();
      });
      await flushTelemetry();
      const call = await receiver.waitForSpan((span) => span.name === "resend emails.send" && span.parentSpanId === parent.spanId);
      expect(call.kind).toBe(CLIENT);
      expect(call.attributes["peer.service"]).toBe("resend");
      expect(call.statusCode).toBe(0);
    } finally {
      await resend.close();
    }
  });
});

describe("tracing over OTLP/HTTP protobuf", () => {
  it("exports the same spans in the protobuf encoding (the default protocol)", async () => {
    const receiver = await startOtlpReceiver();
    try {
      startWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: "20", OTEL_METRICS_EXPORTER: "none" });
      const account = await registerAccount();
      const requestId = `trace-proto-${randomUUID()}`;
      expect((await call(meRoute, apiRequest("/api/v1/auth/me", { headers: { ...bearer(account.accessToken), "x-request-id": requestId }, ip: nextTestIp() }))).status).toBe(200);
      await flushTelemetry();
      const request = await receiver.waitForSpan((span) => span.name === "GET /api/v1/auth/me" && span.attributes["http.request.id"] === requestId);
      expect(request.attributes).toMatchObject({ "http.route": "/api/v1/auth/me", "http.response.status_code": 200, "user.hash": telemetryUserHash(account.id) });
      expect(childrenOf(receiver.spans, request).some((span) => span.attributes["db.system.name"] === "postgresql")).toBe(true);
      expect(receiver.requests.filter((received) => received.path === "/v1/traces").every((received) => received.contentType === "application/x-protobuf")).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});

describe("OTLP metrics", () => {
  it("exports the request and job duration histograms", async () => {
    const receiver = await startOtlpReceiver();
    try {
      startWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_METRIC_EXPORT_INTERVAL: "500", OTEL_BSP_SCHEDULE_DELAY: "20" });
      const account = await registerAccount();
      expect((await call(meRoute, apiRequest("/api/v1/auth/me", { headers: bearer(account.accessToken), ip: nextTestIp() }))).status).toBe(200);
      const deadline = Date.now() + 10_000;
      while (!receiver.metricNames.has("http.server.request.duration") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(receiver.metricNames).toContain("http.server.request.duration");
      const key = randomUUID();
      await enqueueJob(systemContext(), recordJob, { key });
      await runPendingJobs({ name: recordJob.name });
      while (!receiver.metricNames.has("messaging.process.duration") && Date.now() < deadline + 5_000) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(receiver.metricNames).toContain("messaging.process.duration");
    } finally {
      await receiver.close();
    }
  });
});

describe("an exporter that cannot deliver", () => {
  async function timeRequests(account: TestAccount, count: number): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const response = await call(meRoute, apiRequest("/api/v1/auth/me", { headers: bearer(account.accessToken), ip: nextTestIp() }));
      times.push(performance.now() - started);
      expect(response.status).toBe(200);
      await json(response);
    }
    return times;
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  it("a black hole: requests take no longer, the bounded queue drops and counts, exports time out", async () => {
    const hole = await startBlackHole();
    try {
      const account = await registerAccount();
      await timeRequests(account, 5); // warm up
      const untraced = await timeRequests(account, 30);
      const fullBefore = await dropped("queue_full");
      const timedOutBefore = await dropped("export_timeout");
      startWith({
        OTEL_EXPORTER_OTLP_ENDPOINT: hole.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_METRICS_EXPORTER: "none",
        OTEL_BSP_MAX_QUEUE_SIZE: "16",
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "8",
        OTEL_BSP_SCHEDULE_DELAY: "10",
        OTEL_BSP_EXPORT_TIMEOUT: "300",
        OTEL_EXPORTER_OTLP_TIMEOUT: "3000",
      });
      const traced = await timeRequests(account, 30);
      // Each request makes several spans: far more than the queue holds while an export hangs.
      expect((await dropped("queue_full")) - fullBefore).toBeGreaterThan(0);
      expect(median(traced)).toBeLessThan(median(untraced) * 2 + 5);
      expect(Math.max(...traced)).toBeLessThan(250);
      const deadline = Date.now() + 5_000;
      while ((await dropped("export_timeout")) === timedOutBefore && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await dropped("export_timeout")) - timedOutBefore).toBeGreaterThan(0);
      expect(hole.connections).toBeGreaterThan(0);
    } finally {
      await stopTelemetry();
      await hole.close();
    }
  });

  it("a closed port: requests answer as usual and failed exports are counted", async () => {
    const url = await closedPortUrl();
    const failedBefore = await dropped("export_failed");
    startWith({ OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_METRICS_EXPORTER: "none", OTEL_BSP_SCHEDULE_DELAY: "10", OTEL_EXPORTER_OTLP_TIMEOUT: "2000" });
    const account = await registerAccount();
    const times = await timeRequests(account, 10);
    expect(Math.max(...times)).toBeLessThan(250);
    const deadline = Date.now() + 10_000;
    while ((await dropped("export_failed")) === failedBefore && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await dropped("export_failed")) - failedBefore).toBeGreaterThan(0);
  });
});
