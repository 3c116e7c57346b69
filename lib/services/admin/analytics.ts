import { and, gte, inArray, lte, sql } from "drizzle-orm";
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

/**
 * GET /admin/analytics: one row per UTC day of [from, to], zero-filled, read from the per-day rollup the
 * database's triggers keep (rollup_days, docs/decisions/0049-admin-rollups.md): at most a few thousand
 * small rows for a year, whatever the number of scans. Scans (every class), sign-ups (users.createdAt),
 * orders placed (createdAt) and paid (paidAt); revenue is the total of the orders paid that day per
 * currency (gross: a later refund does not change the day it was paid on; subscription invoices are not
 * included). These are events as they were recorded: deleting old scans (retention), an account or its
 * orders later does not change a past day.
 */
export async function getAdminAnalytics(ctx: ServiceContext, query: AnalyticsQuery, now = new Date()): Promise<AnalyticsDay[]> {
  requireAdmin(ctx);
  const { from, to, days } = analyticsRange(query, now);
  const { rollupDays } = schema;
  // Scans are kept per class; the chart shows them all, so only revenue keeps its dimension (the currency).
  const dim = sql<string>`case when ${rollupDays.metric} = 'orders.paid' then ${rollupDays.dim} else '' end`;
  const rows = await ctx.db
    .select({
      date: sql<string>`to_char(${rollupDays.day}, 'YYYY-MM-DD')`,
      metric: rollupDays.metric,
      dim,
      n: sql<string>`sum(${rollupDays.n})`,
      amount: sql<string>`sum(${rollupDays.amount})`,
    })
    .from(rollupDays)
    .where(and(gte(rollupDays.day, from), lte(rollupDays.day, to), inArray(rollupDays.metric, ["scans", "signups", "orders", "orders.paid"])))
    .groupBy(rollupDays.day, rollupDays.metric, dim)
    .orderBy(rollupDays.day, rollupDays.metric, dim);

  const start = dayStart(from).getTime();
  const result: AnalyticsDay[] = Array.from({ length: days }, (_, index) => ({
    date: isoDay(new Date(start + index * DAY_MS)),
    scans: 0,
    signups: 0,
    orders: 0,
    paidOrders: 0,
    revenue: [],
  }));
  const byDate = new Map(result.map((day) => [day.date, day]));
  for (const row of rows) {
    const day = byDate.get(row.date);
    const n = Number(row.n);
    if (!day || (n === 0 && Number(row.amount) === 0)) continue;
    if (row.metric === "scans") day.scans += n;
    else if (row.metric === "signups") day.signups += n;
    else if (row.metric === "orders") day.orders += n;
    else if (row.metric === "orders.paid") {
      day.paidOrders += n;
      if (n > 0) day.revenue.push({ currency: row.dim, amount: toMajor(Number(row.amount)) });
    }
  }
  return result;
}
