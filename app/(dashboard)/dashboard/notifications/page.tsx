import type { Metadata } from "next";
import Link from "next/link";
import { CursorPager, cursorParam, pageOrFirst } from "@/components/dashboard/pager";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { PageHeading } from "@/components/dashboard/page-heading";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { leadsBeyondList, listNotifications, notificationAction, notificationOpenPath, unreadCount, type NotificationItem } from "@/lib/services/notifications";
import { markAllReadAction, markReadAction } from "./actions";

export const metadata: Metadata = { title: "Notifications" };

const PAGE_SIZE = 20;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export default async function NotificationsPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext("/dashboard/notifications");
  const params = await searchParams;
  const [list, { count: unread }, timeZone] = await Promise.all([
    pageOrFirst((cursor) => listNotifications(ctx, { page: 1, limit: PAGE_SIZE, cursor }), cursorParam(params.cursor)),
    unreadCount(ctx),
    viewerTimeZone(),
  ]);
  const { items, total, page } = list;
  // The page's own cursor, so a form on it comes back to it.
  const cursor = page > 1 ? cursorParam(params.cursor) : undefined;
  const marked = Number(first(params.count)) || 0;
  const notice = noticeFrom(params, {
    read: { tone: "success", text: "Marked as read." },
    missing: { tone: "error", text: "That notification no longer exists." },
    "all-read": { tone: "success", text: marked === 1 ? "1 notification marked as read." : `${marked} notifications marked as read.` },
  });

  return (
    <div className="max-w-3xl">
      <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <PageHeading title="Notifications">
          {total === 0 ? "Nothing yet." : `${unread} unread of ${list.totalIsEstimate ? "about " : ""}${total.toLocaleString("en")}.`} New ones also appear here while you use the dashboard.
        </PageHeading>
        <Link href="/dashboard/notifications/preferences" className="btn-secondary shrink-0">
          Notification settings
        </Link>
      </div>
      {notice ? <FormAlert tone={notice.tone} title={notice.text} className="mb-6" /> : null}

      {unread > 0 ? (
        <form action={markAllReadAction} className="mb-4">
          {cursor ? <input type="hidden" name="cursor" value={cursor} /> : null}
          <SubmitButton variant="secondary" pendingLabel="Marking…" className="w-full sm:w-auto">
            Mark all as read
          </SubmitButton>
        </form>
      ) : null}

      {items.length === 0 ? (
        <p className="rounded-xl border border-line bg-white p-6 text-muted shadow-sm">
          {page > 1 ? "There is nothing on this page." : "You have no notifications yet. When someone scans your tag, writes to you or sends you a tag, it shows up here."}
        </p>
      ) : (
        <ul aria-label="Notifications, newest first" className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-white shadow-sm">
          {items.map((item) => (
            <NotificationRow key={item.id} item={item} cursor={cursor} timeZone={timeZone} />
          ))}
        </ul>
      )}

      <CursorPager
        page={page}
        totalPages={Math.ceil(total / PAGE_SIZE)}
        totalIsEstimate={list.totalIsEstimate}
        nextCursor={list.nextCursor}
        href={(next) => (next ? `/dashboard/notifications?cursor=${encodeURIComponent(next)}` : "/dashboard/notifications")}
        label="Notification pages"
        firstLabel="Newest notifications"
        nextLabel="Older notifications"
      />
    </div>
  );
}

function NotificationRow({ item, cursor, timeZone }: { item: NotificationItem; cursor: string | undefined; timeZone: string }) {
  const headingId = `notification-${item.id}`;
  const action = notificationAction(item.type, item.data);
  return (
    <li
      aria-labelledby={headingId}
      data-read={item.read}
      className={`flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between ${item.read ? "" : "border-l-4 border-l-brand-700 bg-brand-50"}`}
    >
      <div className="min-w-0">
        <p id={headingId} className={`flex flex-wrap items-center gap-2 text-ink ${item.read ? "font-medium" : "font-bold"}`}>
          {item.read ? null : <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">Unread</span>}
          <span className="break-words">{item.title}</span>
        </p>
        <p className="mt-1 text-sm break-words text-ink">{item.body}</p>
        <p className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted">
          <DateTime iso={item.createdAt} timeZone={timeZone} />
          {leadsBeyondList(action) ? (
            // A plain link: the open route marks the notification read, so nothing may prefetch it.
            <a href={notificationOpenPath(item.id)} className="inline-block py-0.5 text-sm font-semibold text-brand-700 underline hover:text-brand-800">
              {action.label}
              <span className="sr-only">: {item.title}</span>
            </a>
          ) : null}
        </p>
      </div>
      {item.read ? null : (
        <form action={markReadAction} className="shrink-0">
          <input type="hidden" name="notificationId" value={item.id} />
          {cursor ? <input type="hidden" name="cursor" value={cursor} /> : null}
          <SubmitButton variant="secondary" pendingLabel="Marking…" className="min-h-10 px-4 py-2 text-sm">
            Mark as read<span className="sr-only">: {item.title}</span>
          </SubmitButton>
        </form>
      )}
    </li>
  );
}
