import type { Metadata } from "next";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { reportStatusLabels, reportTypeLabels } from "@/components/reports/labels";
import { FieldsForm } from "@/components/tags/fields-form";
import { requireUserContext } from "@/lib/http/page-context";
import { pageQuery } from "@/lib/http/page-input";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { listBlockedUsers } from "@/lib/services/blocks";
import { listMyReports, reportTypeSchema } from "@/lib/services/reports";
import { createReportAction, unblockUserAction } from "./actions";

export const metadata: Metadata = { title: "Blocking and reports" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PATH = "/dashboard/account/safety";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ids a "Report" link may carry (`?messageId=…`, `?alertId=…`, `?foundReportId=…`), kept only when they are ids at all. */
function reportSubject(params: Record<string, string | string[] | undefined>) {
  const subject: Record<string, string> = {};
  for (const name of ["targetUserId", "tagId", "messageId", "alertId", "foundReportId"] as const) {
    const value = params[name];
    const id = Array.isArray(value) ? value[0] : value;
    if (id && UUID.test(id)) subject[name] = id.toLowerCase();
  }
  return subject;
}

function subjectText(subject: Record<string, string>): string | null {
  if (subject.messageId) return "You are reporting a message from one of your conversations.";
  if (subject.alertId) return "You are reporting a lost-pet alert.";
  if (subject.foundReportId) return "You are reporting an organisation's found-animal report.";
  if (subject.tagId) return "You are reporting a tag.";
  if (subject.targetUserId) return "You are reporting a user.";
  return null;
}

export default async function SafetyPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext(PATH);
  const timeZone = await viewerTimeZone();
  const params = await searchParams;
  const [blocked, reports] = await Promise.all([listBlockedUsers(ctx), listMyReports(ctx)]);
  const notice = noticeFrom(params, {
    blocked: { tone: "success", text: "The user is blocked." },
    unblocked: { tone: "success", text: "The user is no longer blocked." },
    "block-failed": { tone: "error", text: "That user could not be blocked." },
    "unblock-failed": { tone: "error", text: "That user could not be unblocked." },
  });
  const subject = reportSubject(params);
  const about = subjectText(subject);
  // A "Report" link of a message that tripped the scam rules asks for SCAM; anything else keeps the usual default.
  const defaultType = pageQuery({ type: reportTypeSchema }, params).type ?? "HARASSMENT";

  return (
    <>
      <PageHeading title="Blocking and reports">People you blocked cannot contact you about your tags. Reports go to our moderators, who review each one within 24 hours.</PageHeading>
      {notice ? <FormAlert tone={notice.tone} title={notice.text} className="mb-6" /> : null}
      <div className="flex flex-col gap-6">
        <Panel id="report" title="Report a problem" description="Abuse in a conversation, a tag's page used for a scam, or anything else that is wrong. Tell us what happened.">
          <FieldsForm
            action={createReportAction}
            formLabel="Report a problem"
            hidden={subject}
            intro={about ? <p className="text-sm font-semibold text-ink">{about}</p> : undefined}
            keepFieldsOnSuccess={false}
            fields={[
              { name: "type", label: "What kind of problem", kind: "select", options: reportTypeSchema.options.map((type) => ({ value: type, label: reportTypeLabels[type] })), defaultValue: defaultType },
              { name: "description", label: "What happened", kind: "textarea", rows: 4, maxLength: 2000, hint: "At most 2000 characters." },
            ]}
            submitLabel="Send report"
            pendingLabel="Sending…"
          />
        </Panel>

        <Panel id="blocked" title="Blocked users" description="A blocked user can no longer send you messages through your tags.">
          {blocked.length === 0 ? (
            <p className="text-muted">You have not blocked anyone.</p>
          ) : (
            <ul aria-label="Blocked users" className="flex flex-col divide-y divide-line">
              {blocked.map((entry) => {
                const who = entry.knownAs ? `“${entry.knownAs}”` : "A finder";
                return (
                  <li key={entry.userId} className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
                    <div>
                      <p className="font-semibold text-ink">{who}</p>
                      <p className="text-sm text-muted">Blocked <DateTime iso={entry.blockedAt} timeZone={timeZone} /></p>
                    </div>
                    <form action={unblockUserAction}>
                      <input type="hidden" name="userId" value={entry.userId} />
                      <SubmitButton variant="secondary" pendingLabel="Unblocking…" className="min-h-10 px-4 py-2 text-sm">
                        Unblock<span className="sr-only"> {who}</span>
                      </SubmitButton>
                    </form>
                  </li>
                );
              })}
            </ul>
          )}
        </Panel>

        <Panel id="reports" title="Your reports">
          {reports.length === 0 ? (
            <p className="text-muted">You have not reported anything.</p>
          ) : (
            <ul aria-label="Your reports" className="flex flex-col divide-y divide-line">
              {reports.map((report) => (
                <li key={report.id} className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold text-ink">{reportTypeLabels[report.type]}</span>
                    <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-900" data-report-status={report.status}>
                      {reportStatusLabels[report.status]}
                    </span>
                  </p>
                  <p className="line-clamp-3 text-sm break-words text-ink">{report.description}</p>
                  <p className="text-sm text-muted">Sent <DateTime iso={report.createdAt} timeZone={timeZone} /></p>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </>
  );
}
