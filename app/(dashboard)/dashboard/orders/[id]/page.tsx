import type { Metadata } from "next";
import { AutoRefresh } from "@/components/auto-refresh";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BackLink } from "@/components/dashboard/back-link";
import { DateTime } from "@/components/dashboard/date-time";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { OrderStatusBadge, PaymentStatusBadge } from "@/components/orders/labels";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { formatMoney } from "@/lib/i18n/money";
import { NotFoundError } from "@/lib/services/errors";
import { describeTagOutcome, getOrder, orderReference, type OrderRecord } from "@/lib/services/orders";
import { cancelOrderAction, payOrderAction } from "./actions";
import { countryName } from "@/lib/shop/country-name";

export const metadata: Metadata = { title: "Order" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** While the provider's confirmation is on its way: a look every 2 s, about a minute in all (and 3 looks after a cancelled checkout, in case a decline is on its way). */
const REFRESH_SECONDS = 2;
const MAX_CHECKS = { success: 30, cancelled: 3 } as const;
const CANCELLABLE: readonly OrderRecord["status"][] = ["PENDING", "CONFIRMED", "PROCESSING"];

const failureText: Record<string, string> = {
  CONFLICT: "That is no longer possible for this order: it changed in the meantime. Here is where it stands now.",
  PAYMENT_PROVIDER_ERROR: "The payment provider could not be reached. Please try again in a moment.",
  RATE_LIMITED: "Too many attempts. Please wait a minute and try again.",
};

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

async function loadOrder(ctx: Awaited<ReturnType<typeof requireUserContext>>, id: string): Promise<OrderRecord> {
  try {
    return await getOrder(ctx, id);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}

function PayButton({ order, label }: { order: OrderRecord; label: string }) {
  return (
    <form action={payOrderAction}>
      <input type="hidden" name="orderId" value={order.id} />
      <SubmitButton pendingLabel="Opening the payment page…">{label}</SubmitButton>
    </form>
  );
}

export default async function OrderPage({ params, searchParams }: Props) {
  const { id } = await params;
  if (!UUID.test(id)) notFound();
  const ctx = await requireUserContext(`/dashboard/orders/${id}`);
  const [order, timeZone, query] = await Promise.all([loadOrder(ctx, id), viewerTimeZone(), searchParams]);
  const checkout = first(query.checkout);
  const notice = first(query.notice);
  const checks = Math.max(0, Math.min(100, Number(first(query.check)) || 0));
  const reference = orderReference(order.id);
  const pending = order.status === "PENDING";
  const paid = order.paidAt !== null;
  const failedPayment = pending && order.paymentStatus === "FAILED";

  // Waiting for the provider's event: the page looks again by itself (no JavaScript needed) a bounded number of times.
  const waitingFor = pending && !failedPayment && order.paymentStatus !== "COMPLETED" && (checkout === "success" || checkout === "cancelled") ? checkout : null;
  const waitingForPayment = pending && checkout === "success" && !failedPayment;
  const refresh = waitingFor && checks < MAX_CHECKS[waitingFor] ? `/dashboard/orders/${order.id}?checkout=${waitingFor}&check=${checks + 1}` : null;

  const tags = order.items.flatMap((item) => item.tagIds.map((tagId) => ({ tagId, name: item.name })));
  const ended = order.status === "CANCELLED" || order.status === "REFUNDED";
  // Money came in after the cancellation (a delayed payment completing): it is refunded, nothing ships.
  const paidAfterCancel = order.paidAt !== null && order.cancelledAt !== null && order.paidAt > order.cancelledAt;
  const paymentInFlight = order.status === "CANCELLED" && order.paymentStatus === "PROCESSING" && !paid;
  const tagOutcome = ended && paid ? describeTagOutcome({ withdrawn: order.tagsWithdrawn, kept: tags.length, shipped: order.shippedAt !== null }) : "";
  // In the order things happened (a late payment comes after the cancellation).
  const timeline = [
    { label: "Placed", at: order.createdAt },
    { label: paidAfterCancel ? "Payment received after cancellation" : "Paid", at: order.paidAt },
    { label: "Shipped", at: order.shippedAt },
    { label: "Delivered", at: order.deliveredAt },
    { label: "Cancelled", at: order.cancelledAt },
    { label: "Refunded", at: order.refundedAt },
  ]
    .filter((event): event is { label: string; at: string } => event.at !== null)
    .sort((a, b) => a.at.localeCompare(b.at));

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      {refresh ? <AutoRefresh seconds={REFRESH_SECONDS} url={refresh} /> : null}
      <BackLink href="/dashboard/orders">Your orders</BackLink>
      <PageHeading title={`Order ${reference}`}>
        Placed <DateTime iso={order.createdAt} timeZone={timeZone} />
      </PageHeading>

      {checkout === "success" && paid && order.status !== "CANCELLED" ? (
        <FormAlert tone="success" title="Payment received — your order is confirmed">
          {tags.length > 0 ? `${tags.length === 1 ? "Your new tag is" : `Your ${tags.length} new tags are`} in your account, ready to set up.` : "We will e-mail you when it ships."}
        </FormAlert>
      ) : null}
      {waitingForPayment ? (
        <FormAlert tone="info" title="We're confirming your payment…">
          {refresh ? "This page updates by itself in a moment." : "This is taking longer than usual. Reload the page in a minute; you will not be charged twice."}
        </FormAlert>
      ) : null}
      {failedPayment ? (
        <div role="alert" tabIndex={-1} className="rounded-lg border-l-4 border-danger-700 bg-danger-50 px-4 py-3 text-sm text-danger-700">
          <p className="font-semibold">Your payment did not go through.</p>
          <p className="mt-1">
            {order.paymentError ? <>The payment provider said: &ldquo;{order.paymentError}&rdquo; </> : null}Nothing was charged. Your items are still held for you: try again, with another card if you need to.
          </p>
          <div className="mt-3">
            <PayButton order={order} label="Pay again" />
          </div>
        </div>
      ) : null}
      {pending && checkout === "cancelled" && !failedPayment ? <FormAlert tone="info" title="Payment not completed">Nothing was charged. You can pay whenever you are ready, or cancel the order.</FormAlert> : null}
      {notice === "cancelled" ? <FormAlert tone="success" title="The order was cancelled. Nothing was charged." /> : null}
      {notice === "cancelled-refund" ? <FormAlert tone="success" title="The order was cancelled and a refund was started.">It may take a few days to reach your account.</FormAlert> : null}
      {notice === "cancelled-in-flight" ? (
        <FormAlert tone="success" title="The order was cancelled.">
          A payment you started is still being processed by the payment provider. If it completes, it is refunded in full automatically and we e-mail you.
        </FormAlert>
      ) : null}
      {notice === "failed" ? <FormAlert tone="error" title={failureText[first(query.reason) ?? ""] ?? "That did not work. Please try again."} /> : null}

      <Panel id="summary" title="Summary">
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
          <dt className="text-muted">Status</dt>
          <dd>
            <OrderStatusBadge status={order.status} />
          </dd>
          <dt className="text-muted">Payment</dt>
          <dd>
            <PaymentStatusBadge status={order.paymentStatus} paid={paid} />
          </dd>
          <dt className="text-muted">Total</dt>
          <dd className="font-semibold text-ink" data-testid="order-total">
            {formatMoney(order.total, order.currency)}
          </dd>
          {order.trackingNumber ? (
            <>
              <dt className="text-muted">Tracking</dt>
              <dd className="break-all text-ink">
                {order.carrier ? `${order.carrier}: ` : null}
                <span className="font-mono">{order.trackingNumber}</span>
              </dd>
            </>
          ) : null}
        </dl>
        <div className="mt-5 flex flex-wrap gap-3">
          {pending && !failedPayment ? <PayButton order={order} label="Pay now" /> : null}
          {paid ? (
            <a href={`/api/v1/orders/${order.id}/invoice`} className="btn-secondary">
              Invoice
            </a>
          ) : null}
        </div>
      </Panel>

      <Panel id="items" title="Items">
        <ul className="flex flex-col divide-y divide-line">
          {order.items.map((item) => (
            <li key={item.id} className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-3 first:pt-0">
              <div>
                <p className="font-semibold text-ink">
                  {item.name}
                  {item.variant ? <span className="font-normal text-muted"> · {item.variant}</span> : null}
                </p>
                <p className="text-sm text-muted">
                  {item.quantity} × {formatMoney(item.price, order.currency)}
                  {item.tagPack > 0 ? ` · ${item.tagPack * item.quantity} ${item.tagPack * item.quantity === 1 ? "tag" : "tags"}` : null}
                </p>
              </div>
              <p className="font-semibold text-ink">{formatMoney(Math.round(item.price * 100 * item.quantity) / 100, order.currency)}</p>
            </li>
          ))}
        </ul>
        <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 border-t border-line pt-3 text-sm">
          <dt className="text-muted">Shipping</dt>
          <dd className="text-right text-ink">Free</dd>
          <dt className="font-semibold text-ink">Total</dt>
          <dd className="text-right font-semibold text-ink">{formatMoney(order.total, order.currency)}</dd>
        </dl>
      </Panel>

      {ended && (paid || paymentInFlight) ? (
        <Panel id="refund" title="Refund">
          <div className="flex flex-col gap-2 text-sm text-ink">
            {paymentInFlight ? (
              <p>A payment you started is still being processed by the payment provider. If it completes, the {formatMoney(order.total, order.currency)} is refunded in full automatically and we e-mail you.</p>
            ) : (
              <>
                {paidAfterCancel ? <p>A payment arrived after this order was cancelled, so it is refunded in full and nothing will be shipped.</p> : null}
                <p>
                  {order.paymentStatus === "REFUNDED"
                    ? `We refunded ${formatMoney(order.total, order.currency)} to your payment method.`
                    : `A refund of ${formatMoney(order.total, order.currency)} to your payment method is under way; it may take a few days to reach your account.`}
                </p>
                {tagOutcome ? <p data-testid="refund-tags">{tagOutcome}</p> : null}
              </>
            )}
          </div>
        </Panel>
      ) : null}

      {tags.length > 0 ? (
        <Panel
          id="tags"
          title={ended ? "Tags that stay yours" : "Your new tags"}
          description={ended ? "These tags from this order stay in your account and keep working." : "Added to your account when the payment arrived. Set each one up for the item you will put it on."}
        >
          <ul className="grid gap-2 sm:grid-cols-2">
            {tags.map((tag, index) => (
              <li key={tag.tagId}>
                <Link href={`/dashboard/tags/${tag.tagId}`} className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline">
                  {ended ? "Tag" : "Set up tag"} {index + 1}
                  <span className="sr-only"> of {tags.length}</span>
                  <span className="ml-1 font-normal text-muted">({tag.name})</span>
                </Link>
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}

      <Panel id="history" title="History">
        <ol className="flex flex-col gap-3 border-l-2 border-line pl-4 text-sm">
          {timeline.map((event) => (
            <li key={event.label}>
              <span className="font-semibold text-ink">{event.label}</span>{" "}
              <span className="text-muted">
                <DateTime iso={event.at} timeZone={timeZone} />
              </span>
              {event.label === "Shipped" && order.trackingNumber ? <span className="block text-muted">Tracking number {order.trackingNumber}</span> : null}
            </li>
          ))}
        </ol>
      </Panel>

      {order.shippingAddress ? (
        <Panel id="address" title="Shipping address">
          <address className="text-sm not-italic text-ink">
            {order.shippingAddress.name ? <span className="block font-semibold">{order.shippingAddress.name}</span> : null}
            {order.shippingAddress.line1}
            {order.shippingAddress.line2 ? <span className="block">{order.shippingAddress.line2}</span> : null}
            <span className="block">
              {order.shippingAddress.postalCode} {order.shippingAddress.city}
              {order.shippingAddress.state ? `, ${order.shippingAddress.state}` : null}
            </span>
            <span className="block">{countryName(order.shippingAddress.country)}</span>
          </address>
        </Panel>
      ) : null}

      {CANCELLABLE.includes(order.status) ? (
        <Panel id="cancel" title="Cancel the order" tone="danger" description={
            pending
              ? order.paymentStatus === "PROCESSING"
                ? "A payment you started is still being processed: if it completes after you cancel, it is refunded in full automatically. The items go back on the shelf."
                : "Nothing has been charged; the items go back on the shelf."
              : "You get a full refund. Tags from this order that you have not set up are withdrawn; tags you already set up stay yours and keep working."
          }>
          <details>
            <summary className="btn-secondary cursor-pointer list-none">Cancel order</summary>
            <form action={cancelOrderAction} className="mt-3 flex flex-col gap-2">
              <input type="hidden" name="orderId" value={order.id} />
              <p className="text-sm text-ink">Cancel order {reference}? This cannot be undone.</p>
              <SubmitButton variant="danger" pendingLabel="Cancelling…" className="self-start">
                Yes, cancel the order
              </SubmitButton>
            </form>
          </details>
        </Panel>
      ) : null}
    </div>
  );
}
