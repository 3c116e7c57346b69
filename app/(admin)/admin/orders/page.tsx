import { AdminHeading, FilterForm, FilterSelect, ResultCount } from "@/components/admin/list-filters";
import type { Metadata } from "next";
import { DateTime } from "@/components/dashboard/date-time";
import { CursorPager, pageOrFirst } from "@/components/dashboard/pager";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { FormAlert } from "@/components/forms/form-alert";
import { orderStatusLabels, orderStatusTones, paymentStatusLabels, paymentStatusTones } from "@/components/shop/labels";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { formatMoney } from "@/lib/i18n/money";
import { ORDER_STATUSES, listAdminOrders, orderReference, type AdminOrderRecord } from "@/lib/services/orders";
import { requireAdminContext } from "../admin-context";
import { OrderActions } from "./order-actions";
import { ordersHref, ordersView, ORDERS_PATH, type OrdersView } from "./orders-path";
import { countryName } from "@/lib/shop/country-name";

export const metadata: Metadata = { title: "Orders" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
type OrderStatus = AdminOrderRecord["status"];

const PER_PAGE = 20;

/** The admin moves of the orders service (adminOrderMoves) and its refund rule, to offer only what applies. */
function allowedMoves(order: AdminOrderRecord) {
  const paid = order.paymentStatus === "COMPLETED";
  return {
    processing: order.status === "CONFIRMED",
    ship: order.status === "CONFIRMED" || order.status === "PROCESSING",
    delivered: order.status === "SHIPPED",
    refund: paid && (["CONFIRMED", "PROCESSING", "SHIPPED", "DELIVERED"] as OrderStatus[]).includes(order.status),
  };
}


function noticeOf(params: Record<string, string | string[] | undefined>): { tone: "success" | "error"; text: string } | undefined {
  const read = (name: string) => {
    const value = params[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const order = read("order");
  if (!order || !/^[0-9a-f-]{36}$/i.test(order)) return undefined;
  const ref = orderReference(order);
  const now = read("now");
  switch (read("notice")) {
    case "PROCESSING":
      return { tone: "success", text: `Order ${ref} is marked Processing.` };
    case "SHIPPED":
      return { tone: "success", text: `Order ${ref} is marked Shipped; the buyer is e-mailed the tracking number.` };
    case "DELIVERED":
      return { tone: "success", text: `Order ${ref} is marked Delivered.` };
    case "REFUNDED":
      return { tone: "success", text: `Order ${ref} is refunded.` };
    case "conflict": {
      const label = now && (ORDER_STATUSES as readonly string[]).includes(now) ? orderStatusLabels[now as OrderStatus] : undefined;
      return {
        tone: "error",
        text: `Order ${ref} changed since the page was loaded${label ? ` (it is ${label} now)` : ""}: that action no longer applies. The list shows its current state.`,
      };
    }
    default:
      return undefined;
  }
}

/** Every order, newest first, filtered by status; each with its lines, address and the moves it allows. */
export default async function AdminOrdersPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext(ORDERS_PATH);
  const timeZone = await viewerTimeZone();
  const params = await searchParams;
  const view = ordersView((name) => {
    const value = params[name];
    return Array.isArray(value) ? value[0] : value;
  });
  const list = await pageOrFirst((cursor) => listAdminOrders(ctx, { page: 1, limit: PER_PAGE, status: view.status, cursor }), view.cursor);
  const { items, total } = list;
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  const notice = noticeOf(params);

  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <AdminHeading title="Orders" intro="Paid orders wait as Confirmed: prepare them, ship them with a tracking number, and mark them delivered." />
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}

      <FilterForm action={ORDERS_PATH} label="Filter orders">
        <FilterSelect
          id="filter-status"
          label="Status"
          name="status"
          defaultValue={view.status ?? ""}
          options={[{ value: "", label: "All statuses" }, ...ORDER_STATUSES.map((status) => ({ value: status, label: orderStatusLabels[status] }))]}
        />
      </FilterForm>

      <ResultCount total={total} page={list.page} totalPages={totalPages} estimate={list.totalIsEstimate} noun={["order", "orders"]} />

      {items.length ? (
        <ul aria-label="Orders" className="flex flex-col gap-4">
          {items.map((order) => (
            <OrderCard key={order.id} order={order} view={view} timeZone={timeZone} />
          ))}
        </ul>
      ) : null}

      <CursorPager
        page={list.page}
        totalPages={totalPages}
        totalIsEstimate={list.totalIsEstimate}
        nextCursor={list.nextCursor}
        href={(cursor) => ordersHref({ ...view, cursor })}
        label="Order pages"
        firstLabel="Newest orders"
        nextLabel="Older orders"
        className=""
      />
    </div>
  );
}

function OrderCard({ order, view, timeZone }: { order: AdminOrderRecord; view: OrdersView; timeZone: string }) {
  const headingId = `order-${order.id}`;
  const ref = orderReference(order.id);
  const totalText = formatMoney(order.total, order.currency);
  const address = order.shippingAddress;
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-line bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold text-ink">
          Order <span className="font-mono">{ref}</span>
        </h2>
        <div className="flex flex-wrap gap-2">
          <StatusBadge status={order.status} label={orderStatusLabels[order.status]} tone={orderStatusTones[order.status]} kind="Order status" />
          <StatusBadge status={order.paymentStatus} label={paymentStatusLabels[order.paymentStatus]} tone={paymentStatusTones[order.paymentStatus]} kind="Payment" />
        </div>
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold text-ink">Placed</dt>
        <dd className="text-muted">
          <DateTime iso={order.createdAt} timeZone={timeZone} />
        </dd>
        <dt className="font-semibold text-ink">Buyer</dt>
        <dd className="break-all text-muted">{order.userEmail}</dd>
        <dt className="font-semibold text-ink">Total</dt>
        <dd className="text-ink" data-testid="order-total">
          {totalText}
        </dd>
      </dl>
      <details className="group border-t border-line pt-3">
        <summary className="min-h-11 cursor-pointer py-2 font-semibold text-brand-700">Details and actions</summary>
        <div className="mt-3 flex flex-col gap-5">
          <section aria-label={`Lines of order ${ref}`}>
            <h3 className="text-sm font-semibold text-ink">Lines</h3>
            <ul className="mt-1 flex flex-col gap-1 text-sm">
              {order.items.map((item) => (
                <li key={item.id} className="flex flex-wrap justify-between gap-x-4">
                  <span className="text-ink">
                    {item.quantity} × {item.name}
                    {item.variant ? ` (${item.variant})` : ""}
                  </span>
                  <span className="text-muted">{formatMoney(item.price * item.quantity, order.currency)}</span>
                </li>
              ))}
            </ul>
          </section>
          <div className="grid gap-4 sm:grid-cols-2">
            <section aria-label={`Shipping address of order ${ref}`}>
              <h3 className="text-sm font-semibold text-ink">Shipping address</h3>
              {address ? (
                <address className="mt-1 text-sm text-muted not-italic">
                  {[address.name, address.line1, address.line2, [address.postalCode, address.city].join(" "), address.state, countryName(address.country)].filter(Boolean).map((line) => (
                    <span key={line} className="block break-words">
                      {line}
                    </span>
                  ))}
                </address>
              ) : (
                <p className="mt-1 text-sm text-muted">None given.</p>
              )}
            </section>
            <dl className="grid grid-cols-[max-content_1fr] content-start gap-x-4 gap-y-1 text-sm">
              <dt className="font-semibold text-ink">Order id</dt>
              <dd className="font-mono text-xs break-all text-muted">{order.id}</dd>
              <dt className="font-semibold text-ink">Paid</dt>
              <dd className="text-muted">
                <DateTime iso={order.paidAt} timeZone={timeZone} />
              </dd>
              {order.trackingNumber ? (
                <>
                  <dt className="font-semibold text-ink">Tracking</dt>
                  <dd className="break-all text-muted">
                    {order.trackingNumber}
                    {order.carrier ? ` (${order.carrier})` : ""}
                  </dd>
                </>
              ) : null}
              {order.shippedAt ? (
                <>
                  <dt className="font-semibold text-ink">Shipped</dt>
                  <dd className="text-muted">
                    <DateTime iso={order.shippedAt} timeZone={timeZone} />
                  </dd>
                </>
              ) : null}
              {order.paymentError ? (
                <>
                  <dt className="font-semibold text-ink">Payment error</dt>
                  <dd className="break-words text-muted">{order.paymentError}</dd>
                </>
              ) : null}
              {order.refundId ? (
                <>
                  <dt className="font-semibold text-ink">Refund</dt>
                  <dd className="break-all text-muted">{order.refundId}</dd>
                </>
              ) : null}
            </dl>
          </div>
          <section aria-label={`Actions for order ${ref}`} className="border-t border-line pt-4">
            <h3 className="mb-3 text-sm font-semibold text-ink">Actions</h3>
            <OrderActions orderId={order.id} reference={ref} moves={allowedMoves(order)} totalText={totalText} buyer={order.userEmail} shipped={order.shippedAt !== null} view={{ status: view.status, cursor: view.cursor }} />
          </section>
        </div>
      </details>
    </li>
  );
}
