import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { recordJobDuration } from "@/lib/telemetry/metrics";

/**
 * The process's metrics (docs/operations.md#metrics): one prom-client registry and its metrics, kept on
 * globalThis like the database handle so that Next's separate bundles (instrumentation, route handlers,
 * pages, server actions) and dev reloads count into the same place. Event counters and histograms are
 * recorded where the event happens; gauges read from the database or the hub are set at scrape time
 * (lib/metrics/collect.ts). Every label takes a bounded set of values: route templates, never raw paths;
 * status codes; policy, queue and class names from the code.
 */

/** Every metric's name starts with this. */
export const METRIC_PREFIX = "tagsvc_";

/** Seconds: from a cache hit (a few ms) to the 4 s database budget and past it. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Jobs wait on providers (Resend, Stripe, push): longer. */
const JOB_DURATION_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

function createMetrics() {
  const registry = new Registry();
  const name = (suffix: string) => `${METRIC_PREFIX}${suffix}`;
  const registers = [registry];

  const metrics = {
    registry,
    httpRequestDuration: new Histogram({
      name: name("http_request_duration_seconds"),
      help: "API requests through route(): time to the response head, by route template, method and status",
      labelNames: ["route", "method", "status"] as const,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    serverActionDuration: new Histogram({
      name: name("server_action_duration_seconds"),
      help: "Server actions (forms and row buttons) by action, kind and outcome",
      labelNames: ["action", "kind", "outcome"] as const,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: name("rate_limit_refusals_total"),
      help: "Requests, actions and attempts refused by a rate limit, by the policy that refused",
      labelNames: ["policy"] as const,
      registers,
    }),
    scans: new Counter({
      name: name("scans_total"),
      help: "Scans recorded by this instance, by class (REAL, REPEAT, OWNER, BOT, PREFETCH)",
      labelNames: ["class"] as const,
      registers,
    }),
    emailsSent: new Counter({
      name: name("emails_sent_total"),
      help: "E-mails handed to the transport by this instance, by transport and outcome",
      labelNames: ["transport", "outcome"] as const,
      registers,
    }),
    jobRuns: new Histogram({
      name: name("job_duration_seconds"),
      help: "Job attempts run by this instance's workers, by queue and outcome",
      labelNames: ["queue", "outcome"] as const,
      buckets: JOB_DURATION_BUCKETS,
      registers,
    }),
    breakerOpened: new Counter({
      name: name("db_breaker_opened_total"),
      help: "Times the database breaker opened (the database stopped answering)",
      registers,
    }),
    breakerRefused: new Counter({
      name: name("db_breaker_refused_total"),
      help: "Queries and transactions refused at once while the database breaker was open",
      registers,
    }),
    // Read at scrape time (lib/metrics/collect.ts).
    breakerOpen: new Gauge({ name: name("db_breaker_open"), help: "1 while the database breaker is open on this instance", registers }),
    poolInUse: new Gauge({ name: name("db_pool_in_use"), help: "Pool connections running a query or transaction of the app (PostgreSQL only)", registers }),
    poolWaiting: new Gauge({ name: name("db_pool_waiting"), help: "Queries and transactions of the app waiting for a pool connection (PostgreSQL only)", registers }),
    poolMax: new Gauge({ name: name("db_pool_max"), help: "The pool's size, DATABASE_POOL_SIZE (PostgreSQL only)", registers }),
    liveStreams: new Gauge({
      name: name("live_streams"),
      help: "Live (SSE) streams open on this instance, by kind (notifications: signed-in users; thread: finders' conversations)",
      labelNames: ["kind"] as const,
      registers,
    }),
    jobsWaiting: new Gauge({
      name: name("jobs_waiting"),
      help: "Jobs created or retrying and due now, by queue",
      labelNames: ["queue"] as const,
      registers,
    }),
    jobsDeferred: new Gauge({
      name: name("jobs_deferred"),
      help: "Jobs created or retrying whose start is still ahead (a retry's backoff, a scheduled start), by queue",
      labelNames: ["queue"] as const,
      registers,
    }),
    jobsOldestAge: new Gauge({
      name: name("jobs_oldest_waiting_seconds"),
      help: "How long the oldest due job has waited since it became due, by queue (0 when none waits)",
      labelNames: ["queue"] as const,
      registers,
    }),
    jobsActive: new Gauge({ name: name("jobs_active"), help: "Jobs being run by some instance, by queue", labelNames: ["queue"] as const, registers }),
    jobsFailed: new Gauge({
      name: name("jobs_failed"),
      help: "Jobs that failed for good and are not archived yet (pg-boss archives after 12 h), by queue",
      labelNames: ["queue"] as const,
      registers,
    }),
    emailBacklog: new Gauge({
      name: name("email_backlog"),
      help: "E-mails queued and not sent yet, by priority (transactional first, bulk: campaigns)",
      labelNames: ["priority"] as const,
      registers,
    }),
    paymentEventsPending: new Gauge({ name: name("payment_events_pending"), help: "Payment webhook events received and not processed yet", registers }),
    paymentInboxLag: new Gauge({ name: name("payment_inbox_lag_seconds"), help: "Age of the oldest payment webhook event not processed yet (0 when none)", registers }),
    paymentEventsFailed: new Gauge({ name: name("payment_events_failed"), help: "Payment webhook events that failed for good (listed at /admin/payment-events)", registers }),
    scrapeDatabaseError: new Gauge({
      name: name("metrics_database_read_error"),
      help: "1 when the last scrape's database read failed or missed its deadline (the database gauges then show the last values read)",
      registers,
    }),
    scrapeDatabaseAge: new Gauge({ name: name("metrics_database_read_age_seconds"), help: "Age of the database gauges' values (0 when read by this scrape)", registers }),
    scrapeDatabaseDuration: new Gauge({ name: name("metrics_database_read_seconds"), help: "How long the last completed database read took", registers }),
    otelSpansDropped: new Counter({
      name: name("otel_spans_dropped_total"),
      help: "Spans not exported over OTLP, by reason (queue_full: the bounded queue was full; export_failed, export_timeout: the collector refused or did not answer)",
      labelNames: ["reason"] as const,
      registers,
    }),
    otelSpansExported: new Counter({ name: name("otel_spans_exported_total"), help: "Spans the OTLP collector accepted", registers }),
  };
  // Process CPU, memory, event-loop lag, garbage collection: Node's standard names, no prefix.
  collectDefaultMetrics({ register: registry });
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

type MetricsGlobal = { __tagServiceMetrics?: Metrics };
const store = globalThis as MetricsGlobal;

/** The process's metrics, made on first use. */
export function getMetrics(): Metrics {
  store.__tagServiceMetrics ??= createMetrics();
  return store.__tagServiceMetrics;
}

/** Seconds since `startedAt` (a performance.now() reading). */
export function secondsSince(startedAt: number): number {
  return (performance.now() - startedAt) / 1000;
}

/** An API request answered by route(): `route` is the contract's path template (`/api/v1/tags/{id}`). */
export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  getMetrics().httpRequestDuration.observe({ route, method, status: String(status) }, seconds);
}

export type ActionOutcome = "ok" | "redirect" | "invalid" | "rate_limited" | "refused" | "error";

export function observeServerAction(action: string, kind: "form" | "row", outcome: ActionOutcome, seconds: number): void {
  getMetrics().serverActionDuration.observe({ action, kind, outcome }, seconds);
}

export function countRateLimitRefusal(policy: string): void {
  getMetrics().rateLimitRefusals.inc({ policy });
}

export function countScan(scanClass: string): void {
  getMetrics().scans.inc({ class: scanClass });
}

/** `count` e-mails (a batch call's) sent, or failed to send, through `transport`. */
export function countEmailSent(transport: string, outcome: "sent" | "failed", count = 1): void {
  getMetrics().emailsSent.inc({ transport, outcome }, count);
}

export function observeJobRun(queue: string, outcome: "completed" | "failed", seconds: number): void {
  getMetrics().jobRuns.observe({ queue, outcome }, seconds);
  // Over OTLP too when the SDK runs (lib/telemetry).
  recordJobDuration(queue, outcome, seconds);
}

export function countBreakerOpened(): void {
  getMetrics().breakerOpened.inc();
}

export function countBreakerRefusal(): void {
  getMetrics().breakerRefused.inc();
}

/** Spans the tracing SDK could not export (lib/telemetry/processor.ts). */
export function countSpansDropped(count: number, reason: "queue_full" | "export_failed" | "export_timeout"): void {
  getMetrics().otelSpansDropped.inc({ reason }, count);
}

export function countSpansExported(count: number): void {
  getMetrics().otelSpansExported.inc(count);
}
