import { count, sql } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireAdmin, type ServiceContext } from "@/lib/services/context";
import { toMajor } from "@/lib/services/orders";
import type { AdminStats } from "./schemas";

const DAY_MS = 24 * 60 * 60 * 1000;

/** `count(*) filter (where …)` as an integer. */
const countWhere = (condition: ReturnType<typeof sql>) => sql<number>`cast(count(*) filter (where ${condition}) as integer)`;

/**
 * GET /admin/stats: platform totals. Every figure is counted by the database (one aggregate query per
 * table, run side by side); no rows are loaded.
 */
export async function getAdminStats(ctx: ServiceContext, now = new Date()): Promise<AdminStats> {
  requireAdmin(ctx);
  const db = ctx.db;
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const { users, tags, scans, orders, subscriptions, threads, threadMessages, reports, newsletterSubscribers } = schema;

  const [[userRow], tagRows, [scanRow], [orderRow], revenueRows, [subscriptionRow], [threadRow], [messageRow], [reportRow], [newsletterRow]] = await Promise.all([
    db
      .select({
        total: count(),
        verified: countWhere(sql`${users.emailVerified}`),
        suspended: countWhere(sql`${users.suspendedAt} is not null`),
        twoFactor: countWhere(sql`${users.twoFactorEnabled}`),
        admins: countWhere(sql`${users.role} in ('ADMIN', 'SUPER_ADMIN')`),
        free: countWhere(sql`${users.subscription} = 'FREE'`),
        pro: countWhere(sql`${users.subscription} = 'PRO'`),
        premium: countWhere(sql`${users.subscription} = 'PREMIUM'`),
        newLast7Days: countWhere(sql`${users.createdAt} >= ${weekAgo.toISOString()}`),
      })
      .from(users),
    db
      .select({ status: tags.status, total: count(), owned: countWhere(sql`${tags.ownerId} is not null`) })
      .from(tags)
      .groupBy(tags.status),
    db
      .select({
        total: count(),
        last24h: countWhere(sql`${scans.scannedAt} >= ${dayAgo.toISOString()}`),
        last7Days: countWhere(sql`${scans.scannedAt} >= ${weekAgo.toISOString()}`),
        suspicious: countWhere(sql`${scans.suspicious}`),
      })
      .from(scans),
    db
      .select({
        total: count(),
        pending: countWhere(sql`${orders.status} = 'PENDING'`),
        paid: countWhere(sql`${orders.paidAt} is not null`),
        toShip: countWhere(sql`${orders.status} in ('CONFIRMED', 'PROCESSING')`),
      })
      .from(orders),
    db
      .select({ currency: orders.currency, minor: sql<string>`sum(${orders.totalMinor})` })
      .from(orders)
      .where(sql`${orders.paidAt} is not null`)
      .groupBy(orders.currency)
      .orderBy(orders.currency),
    db.select({ active: countWhere(sql`${subscriptions.status} in ('ACTIVE', 'PAST_DUE')`) }).from(subscriptions),
    db.select({ total: count(), active: countWhere(sql`${threads.status} = 'ACTIVE'`) }).from(threads),
    db.select({ total: count() }).from(threadMessages),
    db.select({ total: count(), open: countWhere(sql`${reports.status} in ('OPEN', 'REVIEWING')`) }).from(reports),
    db
      .select({ confirmed: countWhere(sql`${newsletterSubscribers.status} = 'CONFIRMED'`), pending: countWhere(sql`${newsletterSubscribers.status} = 'PENDING'`) })
      .from(newsletterSubscribers),
  ]);

  const byStatus: Record<string, number> = {};
  let tagTotal = 0;
  let owned = 0;
  for (const row of tagRows) {
    byStatus[row.status] = Number(row.total);
    tagTotal += Number(row.total);
    owned += Number(row.owned);
  }

  return {
    users: {
      total: Number(userRow?.total ?? 0),
      verified: Number(userRow?.verified ?? 0),
      suspended: Number(userRow?.suspended ?? 0),
      twoFactor: Number(userRow?.twoFactor ?? 0),
      admins: Number(userRow?.admins ?? 0),
      byTier: { FREE: Number(userRow?.free ?? 0), PRO: Number(userRow?.pro ?? 0), PREMIUM: Number(userRow?.premium ?? 0) },
      newLast7Days: Number(userRow?.newLast7Days ?? 0),
    },
    tags: { total: tagTotal, owned, unowned: tagTotal - owned, byStatus },
    scans: {
      total: Number(scanRow?.total ?? 0),
      last24h: Number(scanRow?.last24h ?? 0),
      last7Days: Number(scanRow?.last7Days ?? 0),
      suspicious: Number(scanRow?.suspicious ?? 0),
    },
    orders: {
      total: Number(orderRow?.total ?? 0),
      pending: Number(orderRow?.pending ?? 0),
      paid: Number(orderRow?.paid ?? 0),
      toShip: Number(orderRow?.toShip ?? 0),
      revenue: revenueRows.map((row) => ({ currency: row.currency, amount: toMajor(Number(row.minor)) })),
    },
    subscriptions: { active: Number(subscriptionRow?.active ?? 0) },
    messages: { threads: Number(threadRow?.total ?? 0), activeThreads: Number(threadRow?.active ?? 0), messages: Number(messageRow?.total ?? 0) },
    reports: { open: Number(reportRow?.open ?? 0), total: Number(reportRow?.total ?? 0) },
    newsletter: { confirmed: Number(newsletterRow?.confirmed ?? 0), pending: Number(newsletterRow?.pending ?? 0) },
    generatedAt: now.toISOString(),
  };
}
