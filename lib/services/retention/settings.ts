import { env, type Env } from "@/lib/env";

/** How long each kind of row is kept (RETENTION_* in the environment; docs/operations.md#retention). */
export interface RetentionSettings {
  /** Finders' IP hashes and the precise places they shared (scans, conversations, notifications, emergency reads, contact form). */
  finderTracesDays: number;
  /** Raw scan rows; older ones are rolled up into tag_scan_days. */
  scansMonths: number;
  /** Messages of conversations closed or blocked this long ago. */
  closedMessagesMonths: number;
  /** Notifications read and this old. */
  readNotificationsMonths: number;
  /** Operational rows: the e-mail outbox, relay webhook answers, ended sessions, spent tokens, finished campaigns' deliveries, the test telephony's records. */
  operationalDays: number;
  /** Payment webhook events processed or ignored this long ago (failed and pending ones stay). */
  paymentEventsDays: number;
  /** pg-boss's archive of finished jobs (its own maintenance deletes them). */
  jobsDays: number;
  /** The daily run's cron expression (UTC), or null when it runs only by hand. */
  schedule: string | null;
}

export function retentionSettings(e: Env = env): RetentionSettings {
  return {
    finderTracesDays: e.RETENTION_FINDER_TRACES_DAYS,
    scansMonths: e.RETENTION_SCANS_MONTHS,
    closedMessagesMonths: e.RETENTION_CLOSED_MESSAGES_MONTHS,
    readNotificationsMonths: e.RETENTION_READ_NOTIFICATIONS_MONTHS,
    operationalDays: e.RETENTION_OPERATIONAL_DAYS,
    paymentEventsDays: e.RETENTION_PAYMENT_EVENTS_DAYS,
    jobsDays: e.RETENTION_JOBS_DAYS,
    schedule: e.RETENTION_SCHEDULE === "off" ? null : e.RETENTION_SCHEDULE,
  };
}

export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}

/** The same day of the month `months` earlier, UTC (the month's last day when it has fewer days). */
export function monthsBefore(now: Date, months: number): Date {
  const target = new Date(now.getTime());
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}
