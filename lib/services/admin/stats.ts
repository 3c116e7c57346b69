import { and, count, gte, lt, sql } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireAdmin, type ServiceContext } from "@/lib/services/context";
import { toMajor } from "@/lib/services/orders";
import type { AdminStats } from "./schemas";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The first whole UTC hour at or after `date`. */
const ceilHour = (date: Date) => new Date(Math.ceil(date.getTime() / HOUR_MS) * HOUR_MS);

/**
 * Scans at or after `since`: the hourly rollup for the whole hours, the raw rows for the part of the first
 * hour before them (at most an hour of scans, a range of scans_scanned_idx). Exact, and as cheap at a billion
 * scans as at ten.
 */
async function scansSince(ctx: ServiceContext, since: Date): Promise<number> {
  const { rollupHours, scans } = schema;
  const firstHour = ceilHour(since);
  const [[hours], [partial]] = await Promise.all([
    ctx.db
      .select({ n: sql<string>`coalesce(sum(${rollupHours.n}), 0)` })
      .from(rollupHours)
      .where(and(sql`${rollupHours.metric} = 'scans'`, gte(rollupHours.hour, firstHour))),
    firstHour.getTime() === since.getTime()
      ? Promise.resolve([{ n: 0 }])
      : ctx.db
          .select({ n: count() })
          .from(scans)
          .where(and(gte(scans.scannedAt, since), lt(scans.scannedAt, firstHour))),
  ]);
  return Number(hours?.n ?? 0) + Number(partial?.n ?? 0);
}

/**
 * GET /admin/stats: platform totals, read from the counters the database's triggers keep
 * (rollup_counters, docs/decisions/0049-admin-rollups.md) instead of counting every table: a few hundred
 * rows summed whatever the platform's size.
 *
 * State (users, tags, orders, subscriptions, threads, reports, newsletter) is what the tables hold now,
 * exactly. scans.total, scans.suspicious and messages.messages are every scan and message ever recorded:
 * raw rows deleted later (retention, a deleted tag or account) still count. The rolling windows are exact:
 * scans from the hourly rollup plus the raw rows of the first partial hour; users.newLast7Days from the
 * index on users.created_at (a week of sign-ups).
 */
export async function getAdminStats(ctx: ServiceContext, now = new Date()): Promise<AdminStats> {
  requireAdmin(ctx);
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const { rollupCounters, users } = schema;

  const [counterRows, last24h, last7Days, [newUsers]] = await Promise.all([
    ctx.db
      .select({ metric: rollupCounters.metric, dim: rollupCounters.dim, n: sql<string>`sum(${rollupCounters.n})`, amount: sql<string>`sum(${rollupCounters.amount})` })
      .from(rollupCounters)
      .groupBy(rollupCounters.metric, rollupCounters.dim)
      .orderBy(rollupCounters.metric, rollupCounters.dim),
    scansSince(ctx, dayAgo),
    scansSince(ctx, weekAgo),
    ctx.db.select({ n: count() }).from(users).where(gte(users.createdAt, weekAgo)),
  ]);

  const totals = new Map<string, number>();
  const dims = new Map<string, { dim: string; n: number; amount: number }[]>();
  for (const row of counterRows) {
    const n = Number(row.n);
    if (n === 0 && Number(row.amount) === 0) continue;
    totals.set(row.metric, (totals.get(row.metric) ?? 0) + n);
    const list = dims.get(row.metric) ?? [];
    list.push({ dim: row.dim, n, amount: Number(row.amount) });
    dims.set(row.metric, list);
  }
  const total = (metric: string) => totals.get(metric) ?? 0;
  const byDim = (metric: string) => dims.get(metric) ?? [];
  const dimCount = (metric: string, dim: string) => byDim(metric).find((row) => row.dim === dim)?.n ?? 0;

  const byStatus: Record<string, number> = {};
  for (const row of byDim("tags.status")) if (row.n > 0) byStatus[row.dim] = row.n;
  const tagTotal = total("tags.status");
  const owned = total("tags.owned");

  return {
    users: {
      total: total("users.total"),
      verified: total("users.verified"),
      suspended: total("users.suspended"),
      twoFactor: total("users.two_factor"),
      admins: total("users.admins"),
      byTier: { FREE: dimCount("users.tier", "FREE"), PRO: dimCount("users.tier", "PRO"), PREMIUM: dimCount("users.tier", "PREMIUM") },
      newLast7Days: Number(newUsers?.n ?? 0),
    },
    tags: { total: tagTotal, owned, unowned: tagTotal - owned, byStatus },
    scans: { total: total("scans.total"), last24h, last7Days, suspicious: total("scans.suspicious") },
    orders: {
      total: total("orders.total"),
      pending: total("orders.pending"),
      paid: total("orders.paid"),
      toShip: total("orders.to_ship"),
      revenue: byDim("orders.paid")
        .filter((row) => row.n > 0)
        .map((row) => ({ currency: row.dim, amount: toMajor(row.amount) })),
    },
    subscriptions: { active: total("subscriptions.active") },
    messages: { threads: total("threads.total"), activeThreads: total("threads.active"), messages: total("messages.total") },
    reports: { open: total("reports.open"), total: total("reports.total") },
    newsletter: { confirmed: dimCount("newsletter.status", "CONFIRMED"), pending: dimCount("newsletter.status", "PENDING") },
    generatedAt: now.toISOString(),
  };
}
