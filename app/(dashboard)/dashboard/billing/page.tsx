import type { Metadata } from "next";
import Link from "next/link";
import { DateTime } from "@/components/dashboard/date-time";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { formatMoney } from "@/lib/i18n/money";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { getBilling, PRO_PLAN, type BillingRecord } from "@/lib/services/subscriptions";
import { cancelSubscriptionAction, upgradeToProAction } from "./actions";

export const metadata: Metadata = { title: "Billing" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PATH = "/dashboard/billing";
const planNames = { FREE: "Free", PRO: "Pro", PREMIUM: "Premium" } as const;
const failureText: Record<string, string> = {
  CONFLICT: "You already have a paid plan, so there is nothing to upgrade.",
  NOT_FOUND: "You have no subscription to cancel.",
  PAYMENT_PROVIDER_ERROR: "The payment provider could not be reached. Nothing was changed; try again in a moment.",
  RATE_LIMIT_EXCEEDED: "Too many attempts. Wait a minute and try again.",
};
const proPrice = formatMoney(PRO_PLAN.amountMinor / 100, PRO_PLAN.currency);

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

function Notices({ params, billing, timeZone }: { params: Record<string, string | string[] | undefined>; billing: BillingRecord; timeZone: string }) {
  const checkout = first(params.checkout);
  const notice = first(params.notice);
  const paid = billing.subscription.tier !== "FREE";
  return (
    <>
      {checkout === "success" ? (
        <FormAlert tone="success" title={paid ? `Thank you: you are on the ${planNames[billing.subscription.tier]} plan.` : "Thank you: your payment went through."}>
          {paid ? null : "Your plan changes as soon as the payment provider confirms it, usually within seconds. Reload this page to see it."}
        </FormAlert>
      ) : null}
      {checkout === "cancelled" ? <FormAlert tone="info" title="Checkout cancelled. Nothing was charged." /> : null}
      {notice === "cancelled" ? (
        <FormAlert tone="success" title="Your plan will not renew.">
          {billing.subscription.currentPeriodEnd ? (
            <>
              It stays active until <DateTime iso={billing.subscription.currentPeriodEnd} timeZone={timeZone} dateOnly long />.
            </>
          ) : null}
        </FormAlert>
      ) : null}
      {notice === "failed" ? <FormAlert tone="error" title={failureText[first(params.reason) ?? ""] ?? "That did not work. Try again in a moment."} /> : null}
    </>
  );
}

function PlanStatus({ billing, timeZone }: { billing: BillingRecord; timeZone: string }) {
  const { subscription } = billing;
  const end = subscription.currentPeriodEnd;
  if (subscription.tier === "FREE") return <>No subscription</>;
  if (subscription.status === "PAST_DUE") return <>The last payment failed; the provider is retrying it. Your tags stay active meanwhile.</>;
  if (!subscription.status) return <>Granted by Tag Service</>;
  if (subscription.cancelAtPeriodEnd) {
    return (
      <>
        Cancelled: ends on <DateTime iso={end} timeZone={timeZone} dateOnly long fallback="the end of the period" />
      </>
    );
  }
  return (
    <>
      Renews on <DateTime iso={end} timeZone={timeZone} dateOnly long fallback="the end of the period" />
    </>
  );
}

export default async function BillingPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext(PATH);
  const [billing, timeZone, params] = await Promise.all([getBilling(ctx), viewerTimeZone(), searchParams]);
  const { subscription } = billing;
  const cancellable = subscription.tier !== "FREE" && (subscription.status === "ACTIVE" || subscription.status === "PAST_DUE") && !subscription.cancelAtPeriodEnd;
  const confirming = first(params.confirm) === "cancel" && cancellable;
  const usedShare = Math.min(100, Math.round((billing.tagsUsed / billing.tagLimit) * 100));

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <PageHeading title="Billing">Your plan, how many tags it allows, and what you have paid.</PageHeading>
      <Notices params={params} billing={billing} timeZone={timeZone} />

      <Panel id="plan" title="Your plan">
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="font-semibold text-ink">Plan</dt>
          <dd className="text-ink">{planNames[subscription.tier]}</dd>
          <dt className="font-semibold text-ink">Tags</dt>
          <dd className="text-ink">
            <p>
              {billing.tagsUsed} of {billing.tagLimit} tags used
            </p>
            <div aria-hidden="true" className="mt-2 h-2 w-full max-w-xs overflow-hidden rounded-full bg-gray-200">
              <div className={`h-full rounded-full ${usedShare >= 100 ? "bg-danger-700" : "bg-brand-700"}`} style={{ width: `${usedShare}%` }} />
            </div>
          </dd>
          <dt className="font-semibold text-ink">Status</dt>
          <dd className="text-ink">
            <PlanStatus billing={billing} timeZone={timeZone} />
          </dd>
          {billing.paymentMethod ? (
            <>
              <dt className="font-semibold text-ink">Card</dt>
              <dd className="text-ink">
                {billing.paymentMethod.brand} ending in {billing.paymentMethod.last4}
              </dd>
            </>
          ) : null}
        </dl>

        {subscription.tier === "FREE" ? (
          <div className="mt-6 rounded-lg border border-brand-700/30 bg-brand-50 p-4">
            <h3 className="font-semibold text-brand-900">Pro: up to 50 tags</h3>
            <p className="mt-1 text-sm text-ink">
              {proPrice} a {PRO_PLAN.interval}, paid through our payment provider. Cancel any time; the plan then runs to the end of the month you paid for.
            </p>
            <form action={upgradeToProAction} className="mt-4">
              <SubmitButton pendingLabel="Opening checkout…">Upgrade to Pro</SubmitButton>
            </form>
          </div>
        ) : null}

        {cancellable && !confirming ? (
          <div className="mt-6">
            <Link href={`${PATH}?confirm=cancel#cancel-heading`} className="btn-secondary">
              Cancel at period end
            </Link>
          </div>
        ) : null}
      </Panel>

      {confirming ? (
        <Panel id="cancel" title={`Cancel your ${planNames[subscription.tier]} plan?`} tone="danger">
          <p className="text-sm text-ink">
            It stays active until <DateTime iso={subscription.currentPeriodEnd} timeZone={timeZone} dateOnly long fallback="the end of the period" /> and will not renew. Then your
            account returns to the Free plan with up to 5 tags: tags beyond 5 expire, the most recently activated first, until you upgrade again.
          </p>
          <div className="mt-4 flex flex-wrap gap-3">
            <form action={cancelSubscriptionAction}>
              <SubmitButton variant="danger" pendingLabel="Cancelling…">
                Yes, cancel at period end
              </SubmitButton>
            </form>
            <Link href={PATH} className="btn-secondary">
              Keep my plan
            </Link>
          </div>
        </Panel>
      ) : null}

      <Panel id="invoices" title="Invoices">
        {billing.invoices.length === 0 ? (
          <p className="text-sm text-muted">No payments yet.</p>
        ) : (
          <ul aria-label="Invoices" className="flex flex-col divide-y divide-line text-sm">
            {billing.invoices.map((invoice) => (
              <li key={invoice.id} className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
                <div>
                  <p className="font-semibold text-ink">{invoice.description}</p>
                  <p className="text-muted">
                    <DateTime iso={invoice.date} timeZone={timeZone} dateOnly /> · {invoice.status === "refunded" ? "Refunded" : "Paid"}
                  </p>
                </div>
                <div className="flex items-center gap-4">
                  <span className="font-semibold text-ink">{formatMoney(invoice.amount, invoice.currency)}</span>
                  {invoice.orderId ? (
                    <a href={`/api/v1/orders/${invoice.orderId}/invoice`} className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline hover:text-brand-800">
                      Invoice<span className="sr-only"> for {invoice.description}</span>
                    </a>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
