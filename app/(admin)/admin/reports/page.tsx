import { AdminHeading, FilterForm, FilterSelect, ResultCount } from "@/components/admin/list-filters";
import type { Metadata } from "next";
import { CursorPager, pageOrFirst } from "@/components/dashboard/pager";
import { DateTime } from "@/components/dashboard/date-time";
import { formatDateTime } from "@/components/dashboard/dates";
import { noticeFrom } from "@/components/dashboard/notices";
import { inputClass } from "@/components/forms/field";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { reportTypeLabels } from "@/components/reports/labels";
import { tagStatusLabels } from "@/components/tags/labels";
import { listReportsForAdmin, queueReportTypeSchema, reportStatusSchema, type AdminReport, type QueueReportType, type ReportAction, type ReportStatus } from "@/lib/services/reports";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import type { TagStatus } from "@/lib/services/tags";
import { requireAdminContext } from "../admin-context";
import { applyReportActionAction, clearStolenAction, updateReportStatusAction } from "./actions";
import { QUEUE_PATH, queueHref, queueView, type QueueView } from "./queue-path";

export const metadata: Metadata = { title: "Reports" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PER_PAGE = 20;

const actionLabels: Record<ReportAction, string> = {
  WARN_USER: "Warn the user",
  SUSPEND_USER: "Suspend the user",
  DEACTIVATE_TAG: "Deactivate the tag",
  DELETE_MESSAGE: "Delete the message",
  DISMISS: "Dismiss the report",
  REMOVE_ALERT: "Remove the lost-pet alert",
  REMOVE_FOUND_REPORT: "Remove the found-animal report",
};

const statusLabels: Record<ReportStatus, string> = { OPEN: "Open", REVIEWING: "Reviewing", RESOLVED: "Resolved", DISMISSED: "Dismissed" };

const doneNotices = Object.fromEntries(
  (Object.keys(actionLabels) as ReportAction[]).map((action) => [`done-${action}`, { tone: "success" as const, text: `Done: ${actionLabels[action].toLowerCase()}. The report is closed.` }]),
);

/** The actions that can apply to a report: each needs the subject it acts on. */
function applicableActions(report: AdminReport): ReportAction[] {
  const actions: ReportAction[] = [];
  if (report.targetUserId) actions.push("WARN_USER");
  if (report.targetUserId && !report.targetSuspended && report.targetRole !== "SUPER_ADMIN") actions.push("SUSPEND_USER");
  if (report.tagId) actions.push("DEACTIVATE_TAG");
  if (report.messageId) actions.push("DELETE_MESSAGE");
  if (report.alert && !report.alert.removed) actions.push("REMOVE_ALERT");
  if (report.foundReport && !report.foundReport.removed) actions.push("REMOVE_FOUND_REPORT");
  actions.push("DISMISS");
  return actions;
}

/** The moderation queue: reports filtered by status and type, each with its actions. */
export default async function AdminReportsPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext(QUEUE_PATH);
  const timeZone = await viewerTimeZone();
  const params = await searchParams;
  const view = queueView((name) => {
    const value = params[name];
    return Array.isArray(value) ? value[0] : value;
  });
  const list = await pageOrFirst(
    (cursor) =>
      listReportsForAdmin(ctx, {
        page: 1,
        limit: PER_PAGE,
        cursor,
        status: view.status === "ALL" ? undefined : (view.status as ReportStatus),
        type: view.type as QueueReportType | undefined,
      }),
    view.cursor,
  );
  const { items, total } = list;
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  const notice = noticeFrom(params, {
    ...doneNotices,
    "status-saved": { tone: "success", text: "The report's status and note are saved." },
    forbidden: { tone: "error", text: "Your role does not allow that: an admin can suspend users only, a super admin admins too, and no one a super admin." },
    "no-subject": { tone: "error", text: "That action does not apply: the report names no such user, tag, message, alert or found report (or it is gone)." },
    closed: { tone: "error", text: "That report is already closed. Reopen it (status Open or Reviewing) to act on it again." },
    missing: { tone: "error", text: "That report was not found." },
    "stolen-cleared": { tone: "success", text: "The stolen report was cleared: the tag is active again, and its owner was told." },
    "not-stolen": { tone: "error", text: "That tag is not reported stolen (any more)." },
  });

  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <AdminHeading title="Reports" intro="Users' reports of abuse. Each one is answered within 24 hours; the open queue shows the oldest first." />
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}

      <FilterForm action={QUEUE_PATH} label="Filter reports">
        <FilterSelect
          id="filter-status"
          label="Status"
          name="status"
          defaultValue={view.status}
          options={[...reportStatusSchema.options.map((status) => ({ value: status, label: statusLabels[status] })), { value: "ALL", label: "All statuses" }]}
        />
        <FilterSelect
          id="filter-type"
          label="Type"
          name="type"
          defaultValue={view.type ?? ""}
          options={[{ value: "", label: "All types" }, ...queueReportTypeSchema.options.map((type) => ({ value: type, label: reportTypeLabels[type] }))]}
        />
      </FilterForm>

      <ResultCount total={total} page={list.page} totalPages={totalPages} estimate={list.totalIsEstimate} noun={["report", "reports"]} />

      {items.length ? (
        <ul aria-label="Reports" className="flex flex-col gap-4">
          {items.map((report) => (
            <ReportCard key={report.id} report={report} view={view} timeZone={timeZone} />
          ))}
        </ul>
      ) : null}

      <CursorPager
        page={list.page}
        totalPages={totalPages}
        totalIsEstimate={list.totalIsEstimate}
        nextCursor={list.nextCursor}
        href={(cursor) => queueHref({ ...view, cursor })}
        label="Report pages"
        firstLabel="First page"
        nextLabel="Next page"
        className=""
      />
    </div>
  );
}

function ViewFields({ view, reportId }: { view: QueueView; reportId: string }) {
  return (
    <>
      <input type="hidden" name="reportId" value={reportId} />
      <input type="hidden" name="view-status" value={view.status} />
      {view.type ? <input type="hidden" name="view-type" value={view.type} /> : null}
      {view.cursor ? <input type="hidden" name="view-cursor" value={view.cursor} /> : null}
    </>
  );
}

/**
 * A stolen report that should not stand (someone else's VIN reported stolen) is taken down here: one form
 * per tag of the report that is STOLEN now. POST /admin/tags/:tagId/clear-stolen.
 */
function ClearStolenForms({ report, view }: { report: AdminReport; view: QueueView }) {
  const stolen = [
    report.tagId && report.tagStatus === "STOLEN" ? { tagId: report.tagId, whose: report.vin ? "the tag holding the VIN" : "the reported tag" } : null,
    report.relatedTagId && report.relatedTagStatus === "STOLEN" ? { tagId: report.relatedTagId, whose: "the refused owner's tag" } : null,
  ].filter((entry) => entry !== null);
  if (!stolen.length) return null;
  return (
    <div className="flex flex-col gap-3 border-t border-line pt-4">
      {stolen.map(({ tagId, whose }) => (
        <form key={tagId} action={clearStolenAction} aria-label={`Clear the stolen report on ${whose}`} className="flex flex-col gap-3">
          <ViewFields view={view} reportId={report.id} />
          <input type="hidden" name="tagId" value={tagId} />
          <p className="text-sm text-ink">
            The stolen report on {whose} shows on its scans and on the public VIN check. Clear it if it should not stand: the tag becomes active, and its owner is told.
          </p>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`clear-${report.id}-${tagId}-note`} className="text-sm font-semibold text-ink">
              Reason <span className="font-normal text-muted">(optional; the owner reads it)</span>
            </label>
            <input id={`clear-${report.id}-${tagId}-note`} name="note" maxLength={500} className={inputClass} />
          </div>
          <div>
            <SubmitButton variant="secondary" pendingLabel="Clearing…">
              Clear the stolen report
            </SubmitButton>
          </div>
        </form>
      ))}
    </div>
  );
}

function ReportCard({ report, view, timeZone }: { report: AdminReport; view: QueueView; timeZone: string }) {
  const headingId = `report-${report.id}`;
  const closed = report.status === "RESOLVED" || report.status === "DISMISSED";
  const actions = applicableActions(report);
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-4 rounded-xl border border-line bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold text-ink">
          {reportTypeLabels[report.type]} <span className="text-sm font-normal text-muted">· <DateTime iso={report.createdAt} timeZone={timeZone} /></span>
        </h2>
        <span data-report-status={report.status} className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${closed ? "bg-slate-100 text-slate-800" : "bg-danger-50 text-danger-700"}`}>
          {statusLabels[report.status]}
        </span>
      </div>
      <p className="break-words whitespace-pre-line text-ink">{report.description}</p>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-semibold text-ink">Reported by</dt>
        <dd className="break-all text-muted">{report.reporterEmail ?? report.reporterId ?? "The system"}</dd>
        {report.vin ? (
          <>
            <dt className="font-semibold text-ink">VIN</dt>
            <dd className="break-all font-mono text-ink">{report.vin}</dd>
          </>
        ) : null}
        <dt className="font-semibold text-ink">{report.vin ? "Owner holding the VIN" : "Reported user"}</dt>
        <dd className="break-all text-muted">
          {report.targetUserId ? (
            <>
              {report.targetEmail ?? report.targetUserId}
              {report.targetRole && report.targetRole !== "USER" ? ` (${report.targetRole})` : ""}
              {report.targetSuspended ? <span className="ml-2 font-semibold text-danger-700">Suspended</span> : null}
            </>
          ) : (
            "None named"
          )}
        </dd>
        {report.tagId ? (
          <>
            <dt className="font-semibold text-ink">Tag</dt>
            <dd className="break-all text-muted">
              {report.tagId}
              {report.tagStatus ? ` (${tagStatusLabels[report.tagStatus as TagStatus] ?? report.tagStatus})` : ""}
            </dd>
          </>
        ) : null}
        {report.vin ? (
          <>
            <dt className="font-semibold text-ink">Owner refused the VIN</dt>
            <dd className="break-all text-muted">{report.relatedUserEmail ?? report.relatedUserId ?? "Gone"}</dd>
            <dt className="font-semibold text-ink">Their tag</dt>
            <dd className="break-all text-muted">
              {report.relatedTagId ?? "Gone"}
              {report.relatedTagStatus ? ` (${tagStatusLabels[report.relatedTagStatus as TagStatus] ?? report.relatedTagStatus})` : ""}
            </dd>
          </>
        ) : null}
        {report.alert ? (
          <>
            <dt className="font-semibold text-ink">Lost-pet alert</dt>
            <dd className="break-words text-muted">
              {report.alert.petName} ({report.alert.species.toLowerCase()}){" "}
              {report.alert.removed ? (
                <span className="font-semibold text-danger-700">Removed</span>
              ) : (
                <a href={`/lost/${report.alert.id}`} className="font-semibold text-brand-700 underline">
                  Open its public page
                </a>
              )}
              {report.alert.note ? <span className="mt-1 block whitespace-pre-line text-ink">{report.alert.note}</span> : null}
            </dd>
          </>
        ) : null}
        {report.foundReport ? (
          <>
            <dt className="font-semibold text-ink">Found-animal report</dt>
            <dd className="break-words text-muted">
              By {report.foundReport.organisationName}, a {report.foundReport.species.toLowerCase()}{" "}
              {report.foundReport.removed ? (
                <span className="font-semibold text-danger-700">Removed</span>
              ) : (
                <a href={`/dashboard/alerts/found/${report.foundReport.id}`} className="font-semibold text-brand-700 underline">
                  Open the report
                </a>
              )}
              <span className="mt-1 block whitespace-pre-line text-ink">{report.foundReport.note}</span>
            </dd>
          </>
        ) : null}
        {report.threadId ? (
          <>
            <dt className="font-semibold text-ink">Conversation</dt>
            <dd className="break-all text-muted">{report.threadId}</dd>
          </>
        ) : null}
        {report.action ? (
          <>
            <dt className="font-semibold text-ink">Action taken</dt>
            <dd className="text-muted">
              {actionLabels[report.action]}
              {report.resolvedAt ? (
                <>
                  , <DateTime iso={report.resolvedAt} timeZone={timeZone} />
                </>
              ) : null}
            </dd>
          </>
        ) : null}
        {report.adminNote ? (
          <>
            <dt className="font-semibold text-ink">Note</dt>
            <dd className="break-words whitespace-pre-line text-muted">{report.adminNote}</dd>
          </>
        ) : null}
      </dl>
      {report.messageContent !== null ? (
        <figure className="rounded-lg border-l-4 border-slate-400 bg-canvas px-4 py-3">
          <figcaption className="text-xs font-semibold text-muted uppercase">Reported message, from the {report.messageSender === "OWNER" ? "owner" : "finder"}</figcaption>
          <blockquote className="mt-1 break-words whitespace-pre-line text-ink">{report.messageContent}</blockquote>
        </figure>
      ) : report.threadId ? (
        <p className="text-sm text-muted">The reported message was deleted.</p>
      ) : null}

      <ClearStolenForms report={report} view={view} />

      <div className="grid gap-4 border-t border-line pt-4 sm:grid-cols-2">
        {!closed ? (
          <form action={applyReportActionAction} aria-label={`Act on the ${reportTypeLabels[report.type].toLowerCase()} report of ${formatDateTime(report.createdAt, timeZone)}`} className="flex flex-col gap-3">
            <ViewFields view={view} reportId={report.id} />
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`${headingId}-action`} className="text-sm font-semibold text-ink">
                Action
              </label>
              <select id={`${headingId}-action`} name="action" className={inputClass} defaultValue={actions[0]}>
                {actions.map((action) => (
                  <option key={action} value={action}>
                    {actionLabels[action]}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`${headingId}-note`} className="text-sm font-semibold text-ink">
                Note <span className="font-normal text-muted">(optional; a warning sends it to the user)</span>
              </label>
              <textarea id={`${headingId}-note`} name="note" rows={2} maxLength={2000} className={inputClass} />
            </div>
            <div>
              <SubmitButton pendingLabel="Applying…">Apply</SubmitButton>
            </div>
          </form>
        ) : null}
        <form action={updateReportStatusAction} aria-label={`Status of the ${reportTypeLabels[report.type].toLowerCase()} report of ${formatDateTime(report.createdAt, timeZone)}`} className={`flex flex-col gap-3 ${closed ? "" : "border-t border-line pt-4 sm:border-t-0 sm:pt-0"}`}>
          <ViewFields view={view} reportId={report.id} />
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${headingId}-status`} className="text-sm font-semibold text-ink">
              Status
            </label>
            <select id={`${headingId}-status`} name="status" defaultValue={report.status} className={inputClass}>
              {reportStatusSchema.options.map((status) => (
                <option key={status} value={status}>
                  {statusLabels[status]}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${headingId}-admin-note`} className="text-sm font-semibold text-ink">
              Admin note <span className="font-normal text-muted">(only admins see it)</span>
            </label>
            <textarea id={`${headingId}-admin-note`} name="adminNote" rows={2} maxLength={2000} defaultValue={report.adminNote ?? ""} className={inputClass} />
          </div>
          <div>
            <SubmitButton variant="secondary" pendingLabel="Saving…">
              Save status
            </SubmitButton>
          </div>
        </form>
      </div>
    </li>
  );
}
