import { sql } from "drizzle-orm";
import { withDatabaseBudget } from "@/db/availability";
import { getDatabase, type Database, type DatabaseHandle } from "@/db/client";
import { env } from "@/lib/env";
import type { JobName } from "@/lib/jobs/catalog";
import { JOBS_SCHEMA, listJobSpecs } from "@/lib/jobs/boss";
import { describeError, log } from "@/lib/log";
import { openStreamCounts } from "@/lib/realtime";
import { getMetrics, type Metrics } from "./registry";

/**
 * The gauges set at scrape time: the breaker and the pool from this instance's guard, the live streams
 * from its hub, and the queues and inboxes from the database in one bounded read. The read has a
 * deadline (SCRAPE_DATABASE_DEADLINE_MS, also its statement_timeout): past it, or when it fails, the
 * scrape serves the values it last read with metrics_database_read_error = 1, and never waits longer.
 * Concurrent scrapes share one read, so scraping can hold at most one pool connection.
 */

export const SCRAPE_DATABASE_DEADLINE_MS = 2_000;
/** A failing read is logged at most this often (scrapes come every 15–60 s). */
const READ_FAILURE_LOG_INTERVAL_MS = 60_000;

const EMAIL_QUEUE: JobName = "email.send";

export interface QueueReading {
  queue: string;
  /** Created or retrying, and due now. */
  waiting: number;
  /** Created or retrying, due later. */
  deferred: number;
  /** Seconds the oldest due job has waited since it became due; 0 when none waits. */
  oldestWaitingSeconds: number;
  active: number;
  failed: number;
  /** Waiting or deferred with a priority below the default (bulk e-mail). */
  lowPriority: number;
}

export interface DatabaseReading {
  queues: QueueReading[];
  payments: { pending: number; lagSeconds: number; failed: number };
  /** Date.now() when the read finished. */
  readAt: number;
  durationSeconds: number;
}

interface ReadingRow {
  source: string;
  key: string;
  a: unknown;
  b: unknown;
  c: unknown;
  d: unknown;
  e: unknown;
  f: unknown;
}

/**
 * One statement for every database gauge. pg-boss's job table holds waiting and active jobs and, until
 * its archive (12 h), finished ones; the payment inbox's (status, received_at) index serves its part.
 * At most 500 queues, so a runaway name cannot grow the answer.
 */
const READING_QUERY = sql.raw(`
  select * from (
    select 'job' as source, name as key,
      count(*) filter (where state < 'active' and start_after <= now())::float8 as a,
      count(*) filter (where state < 'active' and start_after > now())::float8 as b,
      coalesce(extract(epoch from now() - min(start_after) filter (where state < 'active' and start_after <= now())), 0)::float8 as c,
      count(*) filter (where state = 'active')::float8 as d,
      count(*) filter (where state = 'failed')::float8 as e,
      count(*) filter (where state < 'active' and priority < 0)::float8 as f
    from ${JOBS_SCHEMA}.job
    where state in ('created', 'retry', 'active', 'failed')
    group by name
    order by name
    limit 500
  ) jobs
  union all
  select 'payments', '',
    count(*) filter (where status = 'RECEIVED')::float8,
    coalesce(extract(epoch from now() - min(received_at) filter (where status = 'RECEIVED')), 0)::float8,
    count(*) filter (where status = 'FAILED')::float8,
    0, 0, 0
  from payment_events
  where status in ('RECEIVED', 'FAILED')
`);

function rowsOf(result: unknown): ReadingRow[] {
  return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as ReadingRow[];
}

const count = (value: unknown) => {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : 0;
};

/** The rows of READING_QUERY as a reading (pure: unit-tested). */
export function toDatabaseReading(rows: readonly ReadingRow[], readAt: number, durationSeconds: number): DatabaseReading {
  const queues: QueueReading[] = [];
  let payments = { pending: 0, lagSeconds: 0, failed: 0 };
  for (const row of rows) {
    if (row.source === "job") {
      queues.push({ queue: row.key, waiting: count(row.a), deferred: count(row.b), oldestWaitingSeconds: count(row.c), active: count(row.d), failed: count(row.e), lowPriority: count(row.f) });
    } else if (row.source === "payments") {
      payments = { pending: count(row.a), lagSeconds: count(row.b), failed: count(row.c) };
    }
  }
  return { queues, payments, readAt, durationSeconds };
}

/** The database read itself: one statement in a transaction that bounds it on the server too. */
export async function readDatabase(db: Database, deadlineMs: number = SCRAPE_DATABASE_DEADLINE_MS): Promise<DatabaseReading> {
  const startedAt = performance.now();
  const rows = await withDatabaseBudget(deadlineMs, () =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('statement_timeout', ${String(deadlineMs)}, true)`);
      return rowsOf(await tx.execute(READING_QUERY));
    }),
  );
  return toDatabaseReading(rows, Date.now(), (performance.now() - startedAt) / 1000);
}

/** Sets the database gauges from a reading; every known queue gets a value, 0 when it has no jobs. */
export function applyDatabaseReading(metrics: Metrics, reading: DatabaseReading, knownQueues: readonly string[]): void {
  const byQueue = new Map(reading.queues.map((queue) => [queue.queue, queue]));
  for (const gauge of [metrics.jobsWaiting, metrics.jobsDeferred, metrics.jobsOldestAge, metrics.jobsActive, metrics.jobsFailed]) gauge.reset();
  for (const queue of new Set([...knownQueues, ...byQueue.keys()])) {
    const reading = byQueue.get(queue);
    metrics.jobsWaiting.set({ queue }, reading?.waiting ?? 0);
    metrics.jobsDeferred.set({ queue }, reading?.deferred ?? 0);
    metrics.jobsOldestAge.set({ queue }, reading?.oldestWaitingSeconds ?? 0);
    metrics.jobsActive.set({ queue }, reading?.active ?? 0);
    metrics.jobsFailed.set({ queue }, reading?.failed ?? 0);
  }
  const email = byQueue.get(EMAIL_QUEUE);
  const queued = email ? email.waiting + email.deferred : 0;
  const bulk = Math.min(queued, email?.lowPriority ?? 0);
  metrics.emailBacklog.set({ priority: "transactional" }, queued - bulk);
  metrics.emailBacklog.set({ priority: "bulk" }, bulk);
  metrics.paymentEventsPending.set(reading.payments.pending);
  metrics.paymentInboxLag.set(reading.payments.lagSeconds);
  metrics.paymentEventsFailed.set(reading.payments.failed);
  metrics.scrapeDatabaseDuration.set(reading.durationSeconds);
}

/** Sets the gauges this instance knows without a query: breaker, pool, live streams. */
export function applyInstanceGauges(metrics: Metrics, handle: DatabaseHandle | undefined): void {
  if (handle?.kind === "postgres") {
    const usage = handle.availability.poolUsage;
    metrics.breakerOpen.set(handle.availability.state.available ? 0 : 1);
    metrics.poolInUse.set(usage.inUse);
    metrics.poolWaiting.set(usage.waiting);
    metrics.poolMax.set(handle.sql.options.max ?? env.DATABASE_POOL_SIZE);
  } else {
    metrics.breakerOpen.set(0);
  }
  const streams = openStreamCounts();
  metrics.liveStreams.set({ kind: "notifications" }, streams.notifications);
  metrics.liveStreams.set({ kind: "thread" }, streams.threads);
}

interface CollectState {
  inflight?: Promise<DatabaseReading>;
  last?: DatabaseReading;
  lastFailureLogged?: number;
}

type CollectGlobal = { __tagServiceMetricsCollect?: CollectState };
const store = globalThis as CollectGlobal;
const state = (): CollectState => (store.__tagServiceMetricsCollect ??= {});

export interface RefreshOptions {
  /** The database read (tests replace it); by default READING_QUERY on the process's database. */
  read?: () => Promise<DatabaseReading>;
  deadlineMs?: number;
}

/**
 * Brings every scrape-time gauge up to date, within the deadline: the database's from a read shared with
 * any scrape already waiting for one, then the instance's own. A read that arrives after the
 * deadline still updates the gauges for the next scrape.
 */
export async function refreshScrapeGauges(options: RefreshOptions = {}): Promise<void> {
  const metrics = getMetrics();
  const deadlineMs = options.deadlineMs ?? SCRAPE_DATABASE_DEADLINE_MS;
  const handle = options.read ? undefined : getDatabase();
  const collect = state();
  const read = options.read ?? (() => readDatabase(handle!.db, deadlineMs));
  collect.inflight ??= read()
    .then((reading) => {
      collect.last = reading;
      applyDatabaseReading(metrics, reading, listJobSpecs().map((spec) => spec.name));
      return reading;
    })
    .finally(() => {
      collect.inflight = undefined;
    });
  const inflight = collect.inflight;

  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    inflight.then(
      () => "read" as const,
      (error: unknown) => {
        const now = Date.now();
        if (now - (collect.lastFailureLogged ?? 0) >= READ_FAILURE_LOG_INTERVAL_MS) {
          collect.lastFailureLogged = now;
          log.warn("metrics: the database read failed; serving the last values", describeError(error));
        }
        return "failed" as const;
      },
    ),
    new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), deadlineMs);
    }),
  ]);
  clearTimeout(timer);
  // After the read: a read still waiting for a connection shows in the pool's gauges.
  applyInstanceGauges(metrics, handle);
  metrics.scrapeDatabaseError.set(outcome === "read" ? 0 : 1);
  metrics.scrapeDatabaseAge.set(collect.last ? Math.max(0, (Date.now() - collect.last.readAt) / 1000) : 0);
}

/** Tests: forget the last reading (the gauges keep their values until the next read). */
export function resetScrapeStateForTests(): void {
  store.__tagServiceMetricsCollect = {};
}
