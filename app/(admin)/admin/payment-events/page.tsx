import { AdminHeading, FilterForm, FilterSelect, ResultCount } from "@/components/admin/list-filters";
import type { Metadata } from "next";
import Link from "next/link";
import { DateTime } from "@/components/dashboard/date-time";
import { CursorPager, pageOrFirst } from "@/components/dashboard/pager";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { listPaymentEvents, type PaymentEventRecord, type PaymentEventStatus } from "@/lib/services/payment-events";
import { requireAdminContext } from "../admin-context";
import { replayPaymentEventAction } from "./actions";
import { eventsHref, eventsView, EVENTS_PATH, type EventsView } from "./events-path";

export const metadata: Metadata = { title: "Payment events" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PER_PAGE = 20;

const statusLabels: Record<PaymentEventStatus, string> = { FAILED: "Failed", RECEIVED: "Received", PROCESSED: "Processed", IGNORED: "Ignored" };
const statusTones: Record<PaymentEventStatus, string> = {
  FAILED: "border-danger-700 bg-danger-50 text-danger-700",
  RECEIVED: "border-amber-700 bg-amber-50 text-amber-900",
  PROCESSED: "border-green-700 bg-green-50 text-green-900",
  IGNORED: "border-slate-500 bg-slate-100 text-slate-800",
};
/** FAILED first: what needs a look. */
const filterOrder: PaymentEventStatus[] = ["FAILED", "RECEIVED", "PROCESSED", "IGNORED"];

function noticeOf(read: (name: string) => string | undefined, view: EventsView): { tone: "success" | "error"; text: string; event: string } | undefined {
  const event = read("event");
  if (!event || !/^[A-Za-z0-9_.:-]{1,255}$/.test(event)) return undefined;
  switch (read("notice")) {
    case "replayed": {
      const attempts = Number(read("attempts"));
      const tried = Number.isInteger(attempts) && attempts >= 0 ? ` after ${attempts} ${attempts === 1 ? "attempt" : "attempts"}` : "";
      return {
        tone: "success",
        text: `Event ${event} is queued again${tried}: it is Received with a fresh set of retries, and shows as Processed or Failed once its job has run.${view.status === "RECEIVED" || view.status === "ALL" ? "" : " Reload, or look under All statuses."}`,
        event,
      };
    }
    case "processed":
      return { tone: "error", text: `Event ${event} was processed already: it is never applied twice.`, event };
    case "missing":
      return { tone: "error", text: `Event ${event} was not found.`, event };
    default:
      return undefined;
  }
}

/** The payment webhook's inbox: events by status (FAILED by default), each with its error, payload and Replay. */
export default async function AdminPaymentEventsPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext(EVENTS_PATH);
  const timeZone = await viewerTimeZone();
  const params = await searchParams;
  const read = (name: string) => {
    const value = params[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const view = eventsView(read);
  const list = await pageOrFirst((cursor) => listPaymentEvents(ctx, { page: 1, limit: PER_PAGE, status: view.status === "ALL" ? undefined : view.status, cursor }), view.cursor);
  const { items, total } = list;
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  const notice = noticeOf(read, view);

  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <AdminHeading
        title="Payment events"
        intro="The payment provider's webhook events. A failed one has used up its retries (or can never succeed as sent); fix the cause, then replay it. A processed event is never applied twice."
      />
      {notice ? (
        <FormAlert tone={notice.tone} title={notice.text}>
          {notice.tone === "success" ? (
            <Link href={eventsHref(view)} className="font-semibold underline">
              Reload the list
            </Link>
          ) : null}
        </FormAlert>
      ) : null}

      <FilterForm action={EVENTS_PATH} label="Filter payment events">
        <FilterSelect
          id="filter-status"
          label="Status"
          name="status"
          defaultValue={view.status}
          options={[...filterOrder.map((status) => ({ value: status, label: statusLabels[status] })), { value: "ALL", label: "All statuses" }]}
        />
      </FilterForm>

      <ResultCount total={total} page={list.page} totalPages={totalPages} estimate={list.totalIsEstimate} noun={["event", "events"]} />

      {items.length ? (
        <ul aria-label="Payment events" className="flex flex-col gap-4">
          {items.map((event) => (
            <EventCard key={event.id} event={event} view={view} timeZone={timeZone} />
          ))}
        </ul>
      ) : null}

      <CursorPager
        page={list.page}
        totalPages={totalPages}
        totalIsEstimate={list.totalIsEstimate}
        nextCursor={list.nextCursor}
        href={(cursor) => eventsHref({ ...view, cursor })}
        label="Event pages"
        firstLabel="Newest events"
        nextLabel="Older events"
        className=""
      />
    </div>
  );
}

function EventCard({ event, view, timeZone }: { event: PaymentEventRecord; view: EventsView; timeZone: string }) {
  const headingId = `event-${event.id.replace(/[^A-Za-z0-9_-]/g, "-")}`;
  const replayable = event.status !== "PROCESSED";
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-line bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="font-mono text-base font-semibold break-all text-ink">
          {event.type}
        </h2>
        <StatusBadge status={event.status} label={statusLabels[event.status]} tone={statusTones[event.status]} kind="Status" />
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold text-ink">Event id</dt>
        <dd className="font-mono break-all text-muted">{event.id}</dd>
        <dt className="font-semibold text-ink">Received</dt>
        <dd className="text-muted">
          <DateTime iso={event.receivedAt} timeZone={timeZone} />
        </dd>
        <dt className="font-semibold text-ink">Attempts</dt>
        <dd className="text-muted" data-testid="event-attempts">
          {event.attempts}
        </dd>
        {event.processedAt ? (
          <>
            <dt className="font-semibold text-ink">Settled</dt>
            <dd className="text-muted">
              <DateTime iso={event.processedAt} timeZone={timeZone} />
            </dd>
          </>
        ) : null}
        <dt className="font-semibold text-ink">Last error</dt>
        <dd className="break-words whitespace-pre-line text-muted" data-testid="event-error">
          {event.lastError ?? "None"}
        </dd>
      </dl>
      <details className="border-t border-line pt-3">
        <summary className="min-h-11 cursor-pointer py-2 font-semibold text-brand-700">Payload</summary>
        {/* React escapes the text: the payload is shown, never interpreted. */}
        <pre tabIndex={0} role="region" aria-label={`Payload of event ${event.id}`} className="mt-2 max-h-96 overflow-auto rounded-lg bg-slate-900 p-4 font-mono text-xs text-slate-100">
          {JSON.stringify(event.payload, null, 2)}
        </pre>
      </details>
      {replayable ? (
        <form action={replayPaymentEventAction} aria-label={`Replay event ${event.id}`} className="border-t border-line pt-3">
          <input type="hidden" name="id" value={event.id} />
          <input type="hidden" name="view-status" value={view.status} />
          {view.cursor ? <input type="hidden" name="view-cursor" value={view.cursor} /> : null}
          <SubmitButton variant="secondary" pendingLabel="Replaying…">
            Replay
          </SubmitButton>
        </form>
      ) : null}
    </li>
  );
}
