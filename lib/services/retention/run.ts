import { sql, type SQL } from "drizzle-orm";
import { withDatabaseBudget } from "@/db/availability";
import type { Executor } from "@/db/client";
import { log } from "@/lib/log";
import { daysBefore, monthsBefore, retentionSettings, type RetentionSettings } from "./settings";

/**
 * The retention run (docs/operations.md#retention): each step erases or deletes one kind of row past its
 * age, in batches of at most `batchSize` rows, each batch one statement in its own short transaction, so
 * no lock is held for long and a crash loses at most one batch's work. Rows are picked oldest first with
 * FOR UPDATE SKIP LOCKED, so a request writing a row is never waited on, and two runs at once (the daily
 * job and `npm run db:retention`) take disjoint batches: nothing is counted twice. Every step is a sweep
 * of what is past its age now, so a run is idempotent and a missed or cut-short run is caught up by the next.
 */

/** Rows per batch: one statement of this size took 40–90 ms on PostgreSQL (docs/operations.md#retention). */
export const RETENTION_BATCH_SIZE = 5_000;
/** The whole run's time; what is left waits for the next run (the job's expiry is above it). */
export const RETENTION_RUN_BUDGET_MS = 20 * 60_000;
/** Days of the hourly scan rollup kept: the admin stats' longest window (7 days) and a day to spare. */
export const ROLLUP_HOURS_KEPT_DAYS = 8;
/** One batch's database deadline. */
export const RETENTION_BATCH_DEADLINE_MS = 30_000;

export interface RetentionStepReport {
  /** Rows erased or deleted. */
  rows: number;
  batches: number;
  ms: number;
  /** The step's longest batch (one transaction), in milliseconds. */
  longestBatchMs: number;
}

export interface RetentionReport {
  startedAt: string;
  ms: number;
  /** Rows per step (steps with nothing to do are 0). */
  steps: Record<string, RetentionStepReport>;
  rows: number;
  batches: number;
  /** The longest single batch (one transaction), in milliseconds. */
  longestBatchMs: number;
  /** False when the time budget ran out before every step was done (the next run goes on). */
  complete: boolean;
}

export interface RetentionOptions {
  now?: Date;
  settings?: RetentionSettings;
  batchSize?: number;
  budgetMs?: number;
}

interface Cutoffs {
  now: Date;
  traces: Date;
  scans: Date;
  closedMessages: Date;
  readNotifications: Date;
  operational: Date;
  paymentEvents: Date;
}

type Step = { name: string; statement: (cutoffs: Cutoffs, limit: number) => SQL };

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * In order: the 13-month scans first (rolled up and deleted, so the 30-day erasure does not update rows
 * about to go), then the finders' traces, then whole rows by age. Each statement answers `n`, its rows.
 */
export const retentionSteps: readonly Step[] = [
  {
    // The batch's scans leave and their counts join tag_scan_days in one statement (one transaction):
    // a crash either keeps both or neither. tags.scan_count is untouched.
    name: "scansRolledUp",
    statement: (c, limit) => sql`
      with expired as (
        select id from scans where scanned_at < ${at(c.scans)} order by scanned_at limit ${limit} for update skip locked
      ), gone as (
        delete from scans using expired where scans.id = expired.id
        returning scans.tag_id, scans.scanned_at, scans.scan_class, scans.location_shared
      ), rolled as (
        insert into tag_scan_days (tag_id, day, scan_class, scans, shared_locations)
        select tag_id, (scanned_at at time zone 'UTC')::date, scan_class,
          count(*) filter (where not location_shared), count(*) filter (where location_shared)
        from gone group by 1, 2, 3
        on conflict (tag_id, day, scan_class) do update set
          scans = tag_scan_days.scans + excluded.scans,
          shared_locations = tag_scan_days.shared_locations + excluded.shared_locations
        returning 1
      )
      select (select count(*) from gone)::int as n, (select count(*) from rolled)::int as days`,
  },
  {
    name: "scanIpHashesErased",
    statement: (c, limit) => sql`
      with batch as (
        select id from scans where ip_hash is not null and scanned_at < ${at(c.traces)} order by scanned_at limit ${limit} for update skip locked
      ), done as (update scans set ip_hash = null from batch where scans.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "scanPlacesErased",
    statement: (c, limit) => sql`
      with batch as (
        select id from scans where location_shared and latitude is not null and scanned_at < ${at(c.traces)} order by scanned_at limit ${limit} for update skip locked
      ), done as (update scans set latitude = null, longitude = null, accuracy = null from batch where scans.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "messagePlacesErased",
    statement: (c, limit) => sql`
      with batch as (
        select id from thread_messages where latitude is not null and created_at < ${at(c.traces)} order by created_at limit ${limit} for update skip locked
      ), done as (update thread_messages set latitude = null, longitude = null, accuracy = null from batch where thread_messages.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "notificationPlacesErased",
    statement: (c, limit) => sql`
      with batch as (
        select id from notifications where data ? 'latitude' and created_at < ${at(c.traces)} order by created_at limit ${limit} for update skip locked
      ), done as (update notifications set data = notifications.data - array['latitude', 'longitude', 'accuracy'] from batch where notifications.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "threadIpHashesErased",
    statement: (c, limit) => sql`
      with batch as (
        select id from threads where finder_ip_hash is not null and created_at < ${at(c.traces)} limit ${limit} for update skip locked
      ), done as (update threads set finder_ip_hash = null from batch where threads.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "emergencyIpHashesErased",
    statement: (c, limit) => sql`
      with batch as (
        select id from emergency_accesses where ip_hash is not null and accessed_at < ${at(c.traces)} order by accessed_at limit ${limit} for update skip locked
      ), done as (update emergency_accesses set ip_hash = null from batch where emergency_accesses.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "contactIpHashesErased",
    statement: (c, limit) => sql`
      with batch as (
        select id from contact_messages where ip_hash is not null and created_at < ${at(c.traces)} limit ${limit} for update skip locked
      ), done as (update contact_messages set ip_hash = null from batch where contact_messages.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    // Closed or blocked conversations untouched for the period (updated_at moves with every change of
    // the thread, the closing included, so the close is at least that old), without an open report about
    // them. The thread row stays (the owner's list, rewards, a block by number). Locking the thread FOR
    // SHARE re-reads it if the owner reopened it meanwhile, and then leaves it out.
    name: "closedConversationMessagesDeleted",
    statement: (c, limit) => sql`
      with batch as (
        select m.id from thread_messages m join threads t on t.id = m.thread_id
        where t.status in ('CLOSED', 'BLOCKED') and t.updated_at < ${at(c.closedMessages)}
          and not exists (select 1 from reports r where r.thread_id = t.id and r.status in ('OPEN', 'REVIEWING'))
        limit ${limit}
        for update of m skip locked for share of t
      ), done as (delete from thread_messages using batch where thread_messages.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    // …and, once such a conversation has no message left, the finder's e-mail address and the sealed link
    // kept only to tell the finder of replies.
    name: "closedConversationFinderContactsErased",
    statement: (c, limit) => sql`
      with batch as (
        select id from threads t
        where t.status in ('CLOSED', 'BLOCKED') and t.updated_at < ${at(c.closedMessages)}
          and (t.finder_email is not null or t.token_sealed is not null)
          and not exists (select 1 from thread_messages m where m.thread_id = t.id)
        limit ${limit} for update skip locked
      ), done as (update threads set finder_email = null, token_sealed = null from batch where threads.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    // A lost-pet alert's recipient row points at its notification (the alert's "notified" count and the
    // fan-out's retry skip): those notifications stay while the recipient row does.
    name: "readNotificationsDeleted",
    statement: (c, limit) => sql`
      with batch as (
        select id from notifications n
        where read_at is not null and created_at < ${at(c.readNotifications)}
          and (n.type <> 'LOST_PET_NEARBY' or not exists (select 1 from lost_pet_alert_recipients r where r.user_id = n.user_id and r.notification_id = n.id))
        order by created_at limit ${limit} for update skip locked
      ), done as (delete from notifications using batch where notifications.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "sessionsDeleted",
    statement: (c, limit) => sql`
      with batch as (
        select id from sessions where revoked_at < ${at(c.operational)} or expires_at < ${at(c.operational)} limit ${limit} for update skip locked
      ), done as (delete from sessions using batch where sessions.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "refreshTokensDeleted",
    statement: (c, limit) => sql`
      with batch as (
        select id from refresh_tokens where expires_at < ${at(c.now)} limit ${limit} for update skip locked
      ), done as (delete from refresh_tokens using batch where refresh_tokens.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "userTokensDeleted",
    statement: (c, limit) => sql`
      with batch as (
        select id from user_tokens where expires_at < ${at(c.operational)} limit ${limit} for update skip locked
      ), done as (delete from user_tokens using batch where user_tokens.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    // Claims already prune a few expired keys each (lib/http/idempotency.ts); this catches the rest.
    name: "idempotencyKeysDeleted",
    statement: (c, limit) => sql`
      with batch as (
        select caller, key from idempotency_keys where expires_at <= ${at(c.now)} order by expires_at limit ${limit} for update skip locked
      ), done as (delete from idempotency_keys k using batch where k.caller = batch.caller and k.key = batch.key returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "emailOutboxDeleted",
    statement: (c, limit) => sql`
      with batch as (
        select id from email_outbox where created_at < ${at(c.operational)} limit ${limit} for update skip locked
      ), done as (delete from email_outbox using batch where email_outbox.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "relayWebhookEventsDeleted",
    statement: (c, limit) => sql`
      with batch as (
        select sid, step from relay_webhook_events where created_at < ${at(c.operational)} order by created_at limit ${limit} for update skip locked
      ), done as (delete from relay_webhook_events e using batch where e.sid = batch.sid and e.step = batch.step returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "paymentEventsDeleted",
    statement: (c, limit) => sql`
      with batch as (
        select id from payment_events where status in ('PROCESSED', 'IGNORED') and received_at < ${at(c.paymentEvents)} limit ${limit} for update skip locked
      ), done as (delete from payment_events using batch where payment_events.id = batch.id returning 1)
      select count(*)::int as n from done`,
  },
  {
    // A sent campaign keeps its recipient and sent counts on its own row.
    name: "campaignDeliveriesDeleted",
    statement: (c, limit) => sql`
      with batch as (
        select d.campaign_id, d.subscriber_id from campaign_deliveries d join campaigns k on k.id = d.campaign_id
        where k.status = 'SENT' and k.completed_at < ${at(c.operational)} limit ${limit} for update of d skip locked
      ), done as (delete from campaign_deliveries d using batch where d.campaign_id = batch.campaign_id and d.subscriber_id = batch.subscriber_id returning 1)
      select count(*)::int as n from done`,
  },
  {
    name: "testTelephonyDeleted",
    statement: (c, limit) => sql`
      with deliveries as (
        select id from test_telephony_deliveries where created_at < ${at(c.operational)} limit ${limit} for update skip locked
      ), calls as (
        select sid from test_telephony_calls where created_at < ${at(c.operational)} limit ${limit} for update skip locked
      ), gone_deliveries as (delete from test_telephony_deliveries d using deliveries where d.id = deliveries.id returning 1
      ), gone_calls as (delete from test_telephony_calls k using calls where k.sid = calls.sid returning 1)
      select ((select count(*) from gone_deliveries) + (select count(*) from gone_calls))::int as n`,
  },
  {
    // The admin stats read the hourly scan rollup for their last-24-hours and last-7-days windows only
    // (docs/decisions/0049-admin-rollups.md); older hours are never read again. The per-day rollup stays.
    name: "scanHoursDeleted",
    statement: (c, limit) => sql`
      with batch as (
        select hour, metric, shard from rollup_hours where hour < ${at(daysBefore(c.now, ROLLUP_HOURS_KEPT_DAYS))} limit ${limit} for update skip locked
      ), done as (delete from rollup_hours h using batch where h.hour = batch.hour and h.metric = batch.metric and h.shard = batch.shard returning 1)
      select count(*)::int as n from done`,
  },
];

function cutoffsFor(now: Date, settings: RetentionSettings): Cutoffs {
  return {
    now,
    traces: daysBefore(now, settings.finderTracesDays),
    scans: monthsBefore(now, settings.scansMonths),
    closedMessages: monthsBefore(now, settings.closedMessagesMonths),
    readNotifications: monthsBefore(now, settings.readNotificationsMonths),
    operational: daysBefore(now, settings.operationalDays),
    paymentEvents: daysBefore(now, settings.paymentEventsDays),
  };
}

/** postgres.js answers an array of rows, PGlite `{ rows }`. */
function firstRow(result: unknown): Record<string, unknown> | undefined {
  if (Array.isArray(result)) return result[0] as Record<string, unknown> | undefined;
  return (result as { rows?: Record<string, unknown>[] }).rows?.[0];
}

/**
 * Runs every step until nothing past its age is left or the time budget is spent; logs and returns the
 * counts. `db` is the process database (not a transaction): each batch opens its own.
 */
export async function runRetention(db: Executor, options: RetentionOptions = {}): Promise<RetentionReport> {
  const started = performance.now();
  const now = options.now ?? new Date();
  const settings = options.settings ?? retentionSettings();
  const limit = options.batchSize ?? RETENTION_BATCH_SIZE;
  const budgetMs = options.budgetMs ?? RETENTION_RUN_BUDGET_MS;
  const cutoffs = cutoffsFor(now, settings);
  const report: RetentionReport = { startedAt: now.toISOString(), ms: 0, steps: {}, rows: 0, batches: 0, longestBatchMs: 0, complete: true };

  steps: for (const step of retentionSteps) {
    const counts: RetentionStepReport = { rows: 0, batches: 0, ms: 0, longestBatchMs: 0 };
    report.steps[step.name] = counts;
    try {
      for (;;) {
        if (performance.now() - started >= budgetMs) {
          report.complete = false;
          break steps;
        }
        const began = performance.now();
        const result = await withDatabaseBudget(RETENTION_BATCH_DEADLINE_MS, () => db.transaction(async (tx) => tx.execute(step.statement(cutoffs, limit))));
        const took = performance.now() - began;
        counts.ms += took;
        counts.longestBatchMs = Math.max(counts.longestBatchMs, took);
        const n = Number(firstRow(result)?.n ?? 0);
        counts.batches += 1;
        counts.rows += n;
        if (n < limit) break;
      }
    } finally {
      counts.ms = Math.round(counts.ms);
      counts.longestBatchMs = Math.round(counts.longestBatchMs);
    }
  }

  report.rows = Object.values(report.steps).reduce((sum, step) => sum + step.rows, 0);
  report.batches = Object.values(report.steps).reduce((sum, step) => sum + step.batches, 0);
  report.longestBatchMs = Math.max(0, ...Object.values(report.steps).map((step) => step.longestBatchMs));
  report.ms = Math.round(performance.now() - started);
  const rowsByStep = Object.fromEntries(Object.entries(report.steps).map(([name, step]) => [name, step.rows]));
  log.info("retention: run finished", { ...rowsByStep, rows: report.rows, batches: report.batches, longestBatchMs: report.longestBatchMs, ms: report.ms, complete: report.complete });
  return report;
}
