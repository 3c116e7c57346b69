import type { Metadata } from "next";
import { AutoRefresh } from "@/components/auto-refresh";
import { AdminHeading, ResultCount } from "@/components/admin/list-filters";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { Pager, pageParam } from "@/components/dashboard/pager";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { countConfirmedSubscribers, listCampaigns, type CampaignRecord } from "@/lib/services/campaigns";
import { requireAdminContext } from "../admin-context";
import { CampaignComposer } from "./campaign-composer";

export const metadata: Metadata = { title: "Campaigns" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PATH = "/admin/campaigns";
const PER_PAGE = 20;
const REFRESH_SECONDS = 2;

const statusLabels: Record<CampaignRecord["status"], string> = { SENDING: "Sending", SENT: "Sent", FAILED: "Failed" };

function Progress({ campaign }: { campaign: CampaignRecord }) {
  const percent = campaign.recipientCount ? Math.round((campaign.sentCount / campaign.recipientCount) * 100) : 100;
  return (
    <div className="flex flex-col gap-1">
      <progress
        className="h-2 w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-brand-700 [&::-webkit-progress-bar]:bg-brand-50 [&::-webkit-progress-value]:bg-brand-700"
        max={Math.max(1, campaign.recipientCount)}
        value={campaign.sentCount}
        aria-label={`Progress of “${campaign.subject}”`}
      >
        {percent}%
      </progress>
      <p className="text-sm text-muted">
        {campaign.sentCount} of {campaign.recipientCount} sent ({percent}%)
      </p>
    </div>
  );
}

/** Newsletter campaigns: compose (with a live preview) and send to confirmed subscribers, and follow each one's progress. */
export default async function AdminCampaignsPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext(PATH);
  const timeZone = await viewerTimeZone();
  const params = await searchParams;
  const page = pageParam(params.page);
  const [{ items, total }, recipients] = await Promise.all([listCampaigns(ctx, { page, limit: PER_PAGE }), countConfirmedSubscribers(ctx)]);
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  const sending = items.some((campaign) => campaign.status === "SENDING");
  const notice = noticeFrom(params, { sending: { tone: "success", text: "The campaign is on its way. Its progress shows below." } });

  return (
    <div className="flex max-w-5xl flex-col gap-6">
      {/* While a campaign sends, the page looks again every few seconds (with or without JavaScript). */}
      {sending ? <AutoRefresh seconds={REFRESH_SECONDS} /> : null}
      <AdminHeading title="Campaigns" intro="E-mails to the newsletter's confirmed subscribers. Each one carries an unsubscribe link; they go out in batches." />
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}

      <Panel id="compose" title="New campaign" description={`It goes to the ${recipients === 1 ? "1 confirmed subscriber" : `${recipients} confirmed subscribers`} at the moment you send it.`}>
        <CampaignComposer recipients={recipients} />
      </Panel>

      <section aria-labelledby="campaigns-heading" className="flex flex-col gap-3">
        <h2 id="campaigns-heading" className="text-xl font-semibold text-ink">
          Sent campaigns
        </h2>
        <ResultCount total={total} page={page} totalPages={totalPages} noun={["campaign", "campaigns"]} />
        {items.length === 0 ? (
          <p className="text-muted">No campaign yet.</p>
        ) : (
          <ul aria-label="Campaigns" className="flex flex-col divide-y divide-line rounded-xl border border-line bg-white">
            {items.map((campaign) => (
              <li key={campaign.id} className="flex flex-col gap-2 p-4" data-campaign-status={campaign.status}>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="font-semibold break-words text-ink">{campaign.subject}</p>
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${campaign.status === "SENT" ? "bg-green-50 text-green-900" : "bg-brand-50 text-brand-900"}`}>
                    {statusLabels[campaign.status]}
                  </span>
                </div>
                <Progress campaign={campaign} />
                <p className="text-sm text-muted">
                  Created <DateTime iso={campaign.createdAt} timeZone={timeZone} />
                  {campaign.completedAt ? (
                    <>
                      {" "}· completed <DateTime iso={campaign.completedAt} timeZone={timeZone} />
                    </>
                  ) : null}
                </p>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} totalPages={totalPages} href={(target) => `${PATH}?page=${target}`} />
      </section>
    </div>
  );
}
