import type { Metadata } from "next";
import Link from "next/link";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { getMe } from "@/lib/services/auth";
import { listNotifications, unreadCount } from "@/lib/services/notifications";
import { countTagsByStatus, listTags, listTransfers } from "@/lib/services/tags";
import { firstParam, safeNextPath } from "@/app/(site)/login/safe-next";
import { ResendVerificationForm } from "./resend-verification-form";
import { cardClass, LatestNotifications, MissingNow, TagsSummary } from "./overview-sections";

export const metadata: Metadata = { title: "Dashboard" };

const MISSING_SHOWN = 10;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function DashboardPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext("/dashboard");
  const [me, tagCounts, latest, unread, transfers, lost, stolen, timeZone] = await Promise.all([
    getMe(ctx),
    countTagsByStatus(ctx),
    listNotifications(ctx, { page: 1, limit: 3 }),
    unreadCount(ctx),
    listTransfers(ctx),
    listTags(ctx, { page: 1, limit: MISSING_SHOWN, status: "LOST" }),
    listTags(ctx, { page: 1, limit: MISSING_SHOWN, status: "STOLEN" }),
    viewerTimeZone(),
  ]);
  const offers = transfers.incoming.filter((transfer) => transfer.status === "PENDING").length;
  const params = await searchParams;
  const welcome = firstParam(params.welcome) === "1";
  const next = welcome ? safeNextPath(firstParam(params.next)) : null;

  return (
    <div className="flex flex-col gap-8">
      <div>
        <h1 className="text-3xl font-bold tracking-tight text-ink">{welcome ? `Welcome, ${me.firstName}` : `Hello, ${me.firstName}`}</h1>
        <p className="mt-2 text-muted">
          {welcome ? "Your account is ready." : "Here is where you manage your tags, messages and account."}
          {next ? (
            <>
              {" "}
              <Link href={next} className="font-semibold text-brand-700 underline hover:text-brand-800">
                Continue where you left off
              </Link>
              .
            </>
          ) : null}
        </p>
      </div>

      <MissingNow tags={[...lost.items, ...stolen.items]} timeZone={timeZone} />

      {!me.emailVerified ? (
        <section aria-labelledby="verify-heading" className="rounded-xl border border-reward-800/30 bg-reward-50 p-5 sm:p-6">
          <h2 id="verify-heading" className="text-lg font-semibold text-reward-800">
            Confirm your e-mail address
          </h2>
          <p className="mt-2 text-ink">
            We sent a confirmation link to <span className="font-semibold break-all">{me.email}</span>. Open it to confirm the address, so that
            messages about your tags reach you. The link works for 24 hours.
          </p>
          <ResendVerificationForm />
        </section>
      ) : null}

      {offers > 0 ? (
        <section aria-labelledby="offers-heading" className="rounded-xl border border-brand-700/30 bg-brand-50 p-5 sm:p-6">
          <h2 id="offers-heading" className="text-lg font-semibold text-brand-900">
            {offers === 1 ? "A tag is waiting for you" : `${offers} tags are waiting for you`}
          </h2>
          <p className="mt-2 text-ink">Someone offered to transfer {offers === 1 ? "a tag" : "tags"} to your e-mail address. Accept to make {offers === 1 ? "it" : "them"} yours, or decline.</p>
          <Link href="/dashboard/tags/transfers" className="btn-primary mt-4">
            Review transfers
          </Link>
        </section>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <TagsSummary counts={tagCounts} />
        <LatestNotifications items={latest.items} unread={unread.count} timeZone={timeZone} />
      </div>

      <section aria-labelledby="shortcuts-heading">
        <h2 id="shortcuts-heading" className="sr-only">
          Shortcuts
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <li className={cardClass}>
            <h3 className="text-lg font-semibold text-ink">Your account</h3>
            <p className="mt-2 flex-1 text-sm text-muted">Name and phone, password, sessions, API keys, and your data.</p>
            <Link href="/dashboard/account" className="btn-secondary mt-4 self-start">
              Account settings
            </Link>
          </li>
          <li className={cardClass}>
            <h3 className="text-lg font-semibold text-ink">Two-factor authentication</h3>
            <p className="mt-2 flex-1 text-sm text-muted">
              {me.twoFactorEnabled
                ? "On: signing in needs a code from your authenticator app."
                : "Off. Add a code from an authenticator app to every sign-in, so a stolen password is not enough."}
            </p>
            <Link href="/dashboard/account/two-factor" className="btn-secondary mt-4 self-start">
              {me.twoFactorEnabled ? "Manage two-factor" : "Turn on two-factor"}
            </Link>
          </li>
          <li className={cardClass}>
            <h3 className="text-lg font-semibold text-ink">Your plan</h3>
            <p className="mt-2 flex-1 text-sm text-muted">
              {me.subscription === "FREE" ? "Free: up to 5 tags." : me.subscription === "PRO" ? "Pro: up to 50 tags." : "Premium: up to 500 tags."}
            </p>
            <Link href="/dashboard/billing" className="btn-secondary mt-4 self-start">
              {me.subscription === "FREE" ? "Plans and billing" : "Billing"}
            </Link>
          </li>
        </ul>
      </section>
    </div>
  );
}
