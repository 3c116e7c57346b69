import { sql, type AnyColumn, type Table } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireAdmin, type ServiceContext } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";
import { toMajor } from "@/lib/services/orders";
import { ANALYTICS_DEFAULT_DAYS, ANALYTICS_MAX_DAYS, type AnalyticsDay, type AnalyticsQuery } from "./schemas";

const DAY_MS = 24 * 60 * 60 * 1000;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** The range asked for, with the defaults (the last 30 days up to today, UTC) and the limits (400). */
export function analyticsRange(query: AnalyticsQuery, now = new Date()): { from: string; to: string; days: number } {
  const to = query.to ?? (query.from ? isoDay(new Date(Math.max(dayStart(query.from).getTime(), Math.min(now.getTime(), dayStart(query.from).getTime() + (ANALYTICS_DEFAULT_DAYS - 1) * DAY_MS)))) : isoDay(now));
  const from = query.from ?? isoDay(new Date(dayStart(to).getTime() - (ANALYTICS_DEFAULT_DAYS - 1) * DAY_MS));
  const days = Math.round((dayStart(to).getTime() - dayStart(from).getTime()) / DAY_MS) + 1;
  if (days < 1) throw ValidationError.field("from", "`from` must not be after `to`.");
  if (days > ANALYTICS_MAX_DAYS) throw ValidationError.field("to", `At most ${ANALYTICS_MAX_DAYS} days at a time.`);
  return { from, to, days };
}

type Row = Record<string, unknown>;

/** postgres.js answers an array of rows, PGlite `{ rows }`. */
function rowsOf(result: unknown): Row[] {
  if (Array.isArray(result)) return result as Row[];
  return ((result as { rows?: Row[] }).rows ?? []) as Row[];
}

/**
 * GET /admin/analytics: one row per UTC day of [from, to], zero-filled. The database does the counting:
 * a generate_series of the days left-joined with per-day counts of scans (scannedAt), sign-ups (users.createdAt),
 * orders placed (createdAt) and paid (paidAt), each a range scan of its index; revenue is the total of the
 * orders paid that day per currency (gross: a later refund does not change the day it was paid on;
 * subscription invoices are not included).
 */
export async function getAdminAnalytics(ctx: ServiceContext, query: AnalyticsQuery, now = new Date()): Promise<AnalyticsDay[]> {
  requireAdmin(ctx);
  const { from, to } = analyticsRange(query, now);
  const start = dayStart(from).toISOString();
  const end = new Date(dayStart(to).getTime() + DAY_MS).toISOString();
  const { scans, users, orders } = schema;
  const perDay = (column: AnyColumn, table: Table) =>
    sql`select (${column} at time zone 'UTC')::date as day, count(*)::int as n from ${table} where ${column} >= ${start}::timestamptz and ${column} < ${end}::timestamptz group by 1`;

  const [counts, revenue] = await Promise.all([
    ctx.db.execute(sql`
      select to_char(d.day, 'YYYY-MM-DD') as date,
             coalesce(s.n, 0) as scans, coalesce(u.n, 0) as signups, coalesce(o.n, 0) as orders, coalesce(p.n, 0) as paid_orders
      from (select generate_series(${from}::date, ${to}::date, interval '1 day')::date as day) d
      left join (${perDay(scans.scannedAt, scans)}) s on s.day = d.day
      left join (${perDay(users.createdAt, users)}) u on u.day = d.day
      left join (${perDay(orders.createdAt, orders)}) o on o.day = d.day
      left join (${perDay(orders.paidAt, orders)}) p on p.day = d.day
      order by d.day`),
    ctx.db.execute(sql`
      select to_char((${orders.paidAt} at time zone 'UTC')::date, 'YYYY-MM-DD') as date, ${orders.currency} as currency, sum(${orders.totalMinor})::bigint as minor
      from ${orders}
      where ${orders.paidAt} >= ${start}::timestamptz and ${orders.paidAt} < ${end}::timestamptz
      group by 1, 2
      order by 1, 2`),
  ]);

  const revenueByDay = new Map<string, { currency: string; amount: number }[]>();
  for (const row of rowsOf(revenue)) {
    const list = revenueByDay.get(String(row.date)) ?? [];
    list.push({ currency: String(row.currency), amount: toMajor(Number(row.minor)) });
    revenueByDay.set(String(row.date), list);
  }
  return rowsOf(counts).map((row) => ({
    date: String(row.date),
    scans: Number(row.scans),
    signups: Number(row.signups),
    orders: Number(row.orders),
    paidOrders: Number(row.paid_orders),
    revenue: revenueByDay.get(String(row.date)) ?? [],
  }));
}
