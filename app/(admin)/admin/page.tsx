import type { Metadata } from "next";
import Link from "next/link";
import { AdminHeading } from "@/components/admin/list-filters";
import { BarChart } from "@/components/admin/charts";
import { inputClass } from "@/components/forms/field";
import { FormAlert } from "@/components/forms/form-alert";
import { analyticsQuery, analyticsRange, getAdminAnalytics, getAdminStats, type AdminStats, type AnalyticsDay } from "@/lib/services/admin";
import { DomainError } from "@/lib/services/errors";
import { requireAdminContext } from "./admin-context";

export const metadata: Metadata = { title: "Admin" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) || undefined;
const number = new Intl.NumberFormat("en-US");
const money = (currency: string) => (value: number) => new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: value >= 1000 ? 0 : 2 }).format(value);

function StatCard({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="flex flex-col gap-1 rounded-xl border border-line bg-white p-4 shadow-sm">
      <dt className="text-sm font-semibold text-muted">{label}</dt>
      <dd className="text-2xl font-bold tracking-tight text-ink">{value}</dd>
      {detail ? <dd className="text-sm text-muted">{detail}</dd> : null}
    </div>
  );
}

function StatCards({ stats }: { stats: AdminStats }) {
  const revenue = stats.orders.revenue.length ? stats.orders.revenue.map((item) => money(item.currency)(item.amount)).join(" · ") : money("USD")(0);
  return (
    <section aria-labelledby="totals-heading" className="flex flex-col gap-3">
      <h2 id="totals-heading" className="text-lg font-semibold text-ink">
        Totals
      </h2>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Users" value={number.format(stats.users.total)} detail={`${number.format(stats.users.newLast7Days)} new this week · ${number.format(stats.users.suspended)} suspended`} />
        <StatCard label="Paying users" value={number.format(stats.users.byTier.PRO + stats.users.byTier.PREMIUM)} detail={`PRO ${number.format(stats.users.byTier.PRO)} · PREMIUM ${number.format(stats.users.byTier.PREMIUM)}`} />
        <StatCard label="Tags" value={number.format(stats.tags.total)} detail={`${number.format(stats.tags.owned)} owned · ${number.format(stats.tags.unowned)} in stock`} />
        <StatCard label="Lost tags" value={number.format(stats.tags.byStatus.LOST ?? 0)} detail={`${number.format(stats.tags.byStatus.STOLEN ?? 0)} stolen`} />
        <StatCard label="Scans" value={number.format(stats.scans.total)} detail={`${number.format(stats.scans.last24h)} in 24 h · ${number.format(stats.scans.last7Days)} in 7 days`} />
        <StatCard label="Orders" value={number.format(stats.orders.total)} detail={`${number.format(stats.orders.paid)} paid · ${number.format(stats.orders.toShip)} to ship`} />
        <StatCard label="Revenue" value={revenue} detail="Paid orders, gross" />
        <StatCard label="Open reports" value={number.format(stats.reports.open)} detail={`${number.format(stats.messages.activeThreads)} active conversations`} />
        <StatCard label="Newsletter" value={number.format(stats.newsletter.confirmed)} detail={`${number.format(stats.newsletter.pending)} awaiting confirmation`} />
      </dl>
    </section>
  );
}

function revenueSeries(days: AnalyticsDay[]): { currency: string; points: { date: string; value: number }[] }[] {
  const currencies = [...new Set(days.flatMap((day) => day.revenue.map((item) => item.currency)))].sort();
  return (currencies.length ? currencies : ["USD"]).map((currency) => ({
    currency,
    points: days.map((day) => ({ date: day.date, value: day.revenue.find((item) => item.currency === currency)?.amount ?? 0 })),
  }));
}

/** The admin overview: platform totals and the daily charts of a chosen range (30 days by default). */
export default async function AdminPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext("/admin");
  const params = await searchParams;
  const asked = { from: first(params.from), to: first(params.to) };

  let rangeError: string | undefined;
  let query: { from?: string; to?: string } = {};
  const parsed = analyticsQuery.safeParse(asked);
  if (!parsed.success) rangeError = "Enter both dates as calendar dates (YYYY-MM-DD).";
  else {
    try {
      analyticsRange(parsed.data);
      query = parsed.data;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      rangeError = error.message.replaceAll("`", "");
    }
  }
  const range = analyticsRange(query);
  const [stats, days] = await Promise.all([getAdminStats(ctx), getAdminAnalytics(ctx, range)]);

  return (
    <div className="flex max-w-5xl flex-col gap-8">
      <AdminHeading title="Overview" intro="The platform at a glance, and what happened day by day (UTC)." />
      <StatCards stats={stats} />

      <section aria-labelledby="activity-heading" className="flex flex-col gap-4">
        <h2 id="activity-heading" className="text-lg font-semibold text-ink">
          Daily activity, {range.from} to {range.to}
        </h2>
        {rangeError ? <FormAlert tone="error" title={`${rangeError} Showing the last 30 days instead.`} /> : null}
        <form method="get" action="/admin" aria-label="Date range" className="flex flex-col gap-4 rounded-xl border border-line bg-white p-4 shadow-sm sm:flex-row sm:items-end">
          <div className="flex grow flex-col gap-1.5">
            <label htmlFor="range-from" className="text-sm font-semibold text-ink">
              From
            </label>
            <input id="range-from" name="from" type="date" defaultValue={range.from} className={inputClass} />
          </div>
          <div className="flex grow flex-col gap-1.5">
            <label htmlFor="range-to" className="text-sm font-semibold text-ink">
              To <span className="font-normal text-muted">(at most 366 days)</span>
            </label>
            <input id="range-to" name="to" type="date" defaultValue={range.to} className={inputClass} />
          </div>
          <button type="submit" className="btn-secondary">
            Show
          </button>
          <Link href="/admin" className="self-center text-sm font-semibold text-brand-700 underline hover:text-brand-800">
            Last 30 days
          </Link>
        </form>
        <div className="grid gap-4 lg:grid-cols-2">
          <BarChart id="chart-scans" title="Scans" points={days.map((day) => ({ date: day.date, value: day.scans }))} format={(value) => number.format(value)} integer />
          <BarChart id="chart-signups" title="Sign-ups" points={days.map((day) => ({ date: day.date, value: day.signups }))} format={(value) => number.format(value)} integer />
          <BarChart id="chart-orders" title="Orders placed" points={days.map((day) => ({ date: day.date, value: day.orders }))} format={(value) => number.format(value)} integer />
          {revenueSeries(days).map((series) => (
            <BarChart key={series.currency} id={`chart-revenue-${series.currency.toLowerCase()}`} title={`Revenue (${series.currency})`} points={series.points} format={money(series.currency)} />
          ))}
        </div>
      </section>
    </div>
  );
}
