import type { Metadata } from "next";
import Link from "next/link";
import { DateTime } from "@/components/dashboard/date-time";
import { PageHeading } from "@/components/dashboard/page-heading";
import { CursorPager, cursorParam, pageOrFirst } from "@/components/dashboard/pager";
import { HandoverMark, RewardStatusBadge } from "@/components/rewards/reward-status-badge";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { formatMoney } from "@/lib/i18n/money";
import { listRewards, type RewardRecord } from "@/lib/services/rewards";

export const metadata: Metadata = { title: "Rewards" };

const PAGE_SIZE = 20;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Every reward the owner offered, newest first; each links to its tag's reward panel, where its moves are. */
export default async function RewardsPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext("/dashboard/rewards");
  const timeZone = await viewerTimeZone();
  const list = await pageOrFirst((cursor) => listRewards(ctx, { page: 1, limit: PAGE_SIZE, cursor }), cursorParam((await searchParams).cursor));
  const { items, total, page } = list;

  return (
    <div className="max-w-3xl">
      <PageHeading title="Rewards">
        Offer a reward from a tag&apos;s page. Finders see it, and each finder&apos;s conversation gives them their own handover code: ask for it when you get your item back (it names who returned it), and pay only after.
      </PageHeading>
      {items.length === 0 ? (
        <p className="rounded-xl border border-line bg-white p-6 text-muted shadow-sm">
          {page > 1 ? "There is nothing on this page." : (
            <>
              No rewards yet. <Link href="/dashboard/tags" className="font-semibold text-brand-700 underline">Open a tag</Link> to offer one.
            </>
          )}
        </p>
      ) : (
        <ul aria-label="Rewards, newest first" className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-white shadow-sm">
          {items.map((reward) => (
            <RewardRow key={reward.id} reward={reward} timeZone={timeZone} />
          ))}
        </ul>
      )}
      <CursorPager
        page={page}
        totalPages={Math.ceil(total / PAGE_SIZE)}
        totalIsEstimate={list.totalIsEstimate}
        nextCursor={list.nextCursor}
        href={(cursor) => (cursor ? `/dashboard/rewards?cursor=${encodeURIComponent(cursor)}` : "/dashboard/rewards")}
        label="Reward pages"
        firstLabel="Newest rewards"
        nextLabel="Older rewards"
      />
    </div>
  );
}

function RewardRow({ reward, timeZone }: { reward: RewardRecord; timeZone: string }) {
  const moves: Record<RewardRecord["status"], string> = {
    ACTIVE: "Confirm the return or withdraw",
    RETURNED: "Record the payment",
    PAID: "Done",
    DISPUTED: "Remove when settled",
  };
  return (
    <li data-reward-id={reward.id} data-status={reward.status}>
      <Link href={`/dashboard/tags/${reward.tagId}#reward-heading`} className="flex flex-col gap-1 p-4 hover:bg-brand-50 focus-visible:bg-brand-50">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-semibold break-words text-ink">{reward.tagName ?? "Unnamed tag"}</span>
          <span className="font-bold text-ink">{formatMoney(reward.amount, reward.currency)}</span>
          <RewardStatusBadge status={reward.status} />
        </span>
        {reward.returnedAt ? <HandoverMark verified={reward.verifiedHandover} /> : null}
        <span className="text-xs text-muted">
          Offered <DateTime iso={reward.createdAt} timeZone={timeZone} />
          {reward.returnedAt ? <> · returned <DateTime iso={reward.returnedAt} timeZone={timeZone} /></> : null}
          {" · "}
          {moves[reward.status]}
        </span>
      </Link>
    </li>
  );
}
