import type { Metadata } from "next";
import Link from "next/link";
import { DateTime } from "@/components/dashboard/date-time";
import { PageHeading } from "@/components/dashboard/page-heading";
import { CursorPager, cursorParam, pageOrFirst } from "@/components/dashboard/pager";
import { itemCount, OrderStatusBadge, PaymentStatusBadge } from "@/components/orders/labels";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { formatMoney } from "@/lib/i18n/money";
import { listOrders, orderReference } from "@/lib/services/orders";

export const metadata: Metadata = { title: "Orders" };

const PAGE_SIZE = 10;

export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await requireUserContext("/dashboard/orders");
  const [list, timeZone] = await Promise.all([pageOrFirst((cursor) => listOrders(ctx, { page: 1, limit: PAGE_SIZE, cursor }), cursorParam((await searchParams).cursor)), viewerTimeZone()]);
  const { items, total, page } = list;

  return (
    <div className="flex max-w-3xl flex-col">
      <PageHeading title="Orders">What you bought in the shop, newest first.</PageHeading>
      {items.length === 0 ? (
        <div className="rounded-xl border border-line bg-white p-6">
          <p className="text-ink">{page > 1 ? "No orders on this page." : "You have not ordered anything yet."}</p>
          <Link href="/shop" className="btn-primary mt-4">
            Browse the shop
          </Link>
        </div>
      ) : (
        <ul aria-label="Your orders" className="flex flex-col gap-3">
          {items.map((order) => (
            <li key={order.id} className="relative rounded-xl border border-line bg-white p-4 shadow-sm focus-within:ring-3 focus-within:ring-brand-700 sm:p-5">
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <h2 className="font-semibold text-ink">
                  <Link href={`/dashboard/orders/${order.id}`} className="after:absolute after:inset-0 focus:outline-none">
                    Order {orderReference(order.id)}
                  </Link>
                </h2>
                <p className="text-lg font-bold text-ink">{formatMoney(order.total, order.currency)}</p>
              </div>
              <p className="mt-1 text-sm text-muted">
                <DateTime iso={order.createdAt} timeZone={timeZone} /> · {itemCount(order)}
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <OrderStatusBadge status={order.status} />
                <PaymentStatusBadge status={order.paymentStatus} paid={order.paidAt !== null} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <CursorPager
        page={page}
        totalPages={Math.ceil(total / PAGE_SIZE)}
        totalIsEstimate={list.totalIsEstimate}
        nextCursor={list.nextCursor}
        href={(cursor) => (cursor ? `/dashboard/orders?cursor=${encodeURIComponent(cursor)}` : "/dashboard/orders")}
        label="Order pages"
        firstLabel="Newest orders"
        nextLabel="Older orders"
      />
    </div>
  );
}
