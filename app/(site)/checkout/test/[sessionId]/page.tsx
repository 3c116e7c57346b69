import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { paymentProvider } from "@/lib/payments/provider";
import { testProvider } from "@/lib/payments/test-provider";
import { formatMoney } from "@/lib/services/orders";
import { declineTestCheckoutAction, payTestCheckoutAction } from "./actions";

export const metadata: Metadata = { title: "Test checkout", robots: { index: false, follow: false } };

type Props = { params: Promise<{ sessionId: string }>; searchParams: Promise<{ delivery?: string }> };

/**
 * The built-in test provider's hosted checkout (docs/decisions/0029-test-payment-provider.md): what is being paid, with Pay and Decline.
 * It stands in for a real provider's page, so it works without JavaScript and without signing in.
 */
export default async function TestCheckoutPage({ params, searchParams }: Props) {
  if (paymentProvider().name !== "test") notFound();
  const { sessionId } = await params;
  if (!/^cs_test_[A-Za-z0-9]{8,64}$/.test(sessionId)) notFound();
  const session = await testProvider().getSession(sessionId);
  if (!session) notFound();
  const { delivery } = await searchParams;
  const amount = formatMoney(session.amountMinor, session.currency);
  const open = session.status === "open";

  return (
    <div className="container-page flex flex-1 flex-col items-center py-10">
      <section aria-labelledby="checkout-heading" className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
        <p className="text-sm font-semibold uppercase tracking-wide text-amber-800">Test mode: no real money moves</p>
        <h1 id="checkout-heading" className="mt-2 text-2xl font-bold">
          {session.mode === "subscription" ? "Subscribe" : "Pay"} {amount}
        </h1>
        <p className="mt-3 text-gray-700">{session.description}</p>
        {session.mode === "subscription" ? <p className="mt-1 text-sm text-gray-600">Billed every 30 days until cancelled.</p> : null}
        {delivery === "failed" ? (
          <p role="alert" className="mt-4 rounded border border-red-300 bg-red-50 p-3 text-red-800">
            The shop did not accept the payment notification. Try again in a moment.
          </p>
        ) : null}
        {open ? (
          <div className="mt-6 flex flex-wrap gap-3">
            <form action={payTestCheckoutAction}>
              <input type="hidden" name="sessionId" value={session.id} />
              <button type="submit" className="rounded bg-blue-700 px-5 py-2 font-semibold text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2">
                Pay {amount}
              </button>
            </form>
            {session.mode === "payment" ? (
              <form action={declineTestCheckoutAction}>
                <input type="hidden" name="sessionId" value={session.id} />
                <button type="submit" className="rounded border border-gray-400 px-5 py-2 font-semibold text-gray-800 hover:bg-gray-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2">
                  Decline (card declined)
                </button>
              </form>
            ) : null}
          </div>
        ) : (
          <div className="mt-6">
            <p className="font-semibold text-green-800">This checkout is complete.</p>
            <a className="mt-2 inline-block underline" href={session.successUrl}>
              Back to the shop
            </a>
          </div>
        )}
        <p className="mt-6 text-xs text-gray-600">Session {session.id}</p>
      </section>
    </div>
  );
}
