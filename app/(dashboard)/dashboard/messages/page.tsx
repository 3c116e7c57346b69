import type { Metadata } from "next";
import Link from "next/link";
import { CursorPager, cursorParam, pageOrFirst } from "@/components/dashboard/pager";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { PageHeading } from "@/components/dashboard/page-heading";
import { FormAlert } from "@/components/forms/form-alert";
import { threadSubject, threadTitle } from "@/components/messages/labels";
import { ThreadStatusBadge } from "@/components/messages/thread-status-badge";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { listThreads, type ThreadListItem } from "@/lib/services/messages";

export const metadata: Metadata = { title: "Messages" };

const PAGE_SIZE = 20;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * The owner's inbox: one row per finder conversation, most recent activity first, with its unread
 * count. New messages arrive through the notification stream, which refreshes this page
 * (components/notifications/notification-bell.tsx).
 */
export default async function MessagesPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext("/dashboard/messages");
  const params = await searchParams;
  const [list, timeZone] = await Promise.all([pageOrFirst((cursor) => listThreads(ctx, { page: 1, limit: PAGE_SIZE, cursor }), cursorParam(params.cursor)), viewerTimeZone()]);
  const { items, total, page } = list;
  const unreadThreads = items.filter((item) => item.unreadCount > 0).length;
  const notice = noticeFrom(params, { missing: { tone: "error", text: "That conversation no longer exists." } });

  return (
    <div className="max-w-3xl">
      <PageHeading title="Messages">
        People who find your things write to you here without seeing your e-mail address or phone number, and read your replies on their own page.
        {total > 0 ? ` ${list.totalIsEstimate ? "About " : ""}${total.toLocaleString("en")} ${total === 1 ? "conversation" : "conversations"}${unreadThreads ? `, ${unreadThreads} with unread messages on this page` : ""}.` : ""}
      </PageHeading>
      {notice ? <FormAlert tone={notice.tone} title={notice.text} className="mb-6" /> : null}

      {items.length === 0 ? (
        <p className="rounded-xl border border-line bg-white p-6 text-muted shadow-sm">
          {page > 1 ? "There is nothing on this page." : "No messages yet. When someone scans one of your tags and writes to you, the conversation appears here."}
        </p>
      ) : (
        <ul aria-label="Conversations, most recent first" className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-white shadow-sm">
          {items.map((item) => (
            <ThreadRow key={item.id} item={item} timeZone={timeZone} />
          ))}
        </ul>
      )}

      <CursorPager
        page={page}
        totalPages={Math.ceil(total / PAGE_SIZE)}
        totalIsEstimate={list.totalIsEstimate}
        nextCursor={list.nextCursor}
        href={(next) => (next ? `/dashboard/messages?cursor=${encodeURIComponent(next)}` : "/dashboard/messages")}
        label="Conversation pages"
        firstLabel="Most recent conversations"
        nextLabel="Older conversations"
      />
    </div>
  );
}

function ThreadRow({ item, timeZone }: { item: ThreadListItem; timeZone: string }) {
  const unread = item.unreadCount > 0;
  return (
    <li data-thread-id={item.id} data-unread={item.unreadCount} data-scam-flagged={item.scamFlagged ? "true" : undefined} className={unread ? "border-l-4 border-l-brand-700 bg-brand-50" : ""}>
      {/* prefetch off: opening a conversation marks it read, which a prefetch must not do. */}
      <Link href={`/dashboard/messages/${item.id}`} prefetch={false} className="flex flex-col gap-1 p-4 hover:bg-brand-50 focus-visible:bg-brand-50">
        <span className="flex flex-wrap items-center gap-2">
          <span className={`break-words text-ink ${unread ? "font-bold" : "font-semibold"}`}>{threadTitle(item)}</span>
          {unread ? (
            <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">
              {item.unreadCount} unread
            </span>
          ) : null}
          {item.scamFlagged ? (
            <span className="rounded-full border border-danger-700 bg-danger-50 px-2 py-0.5 text-xs font-semibold text-danger-700" data-testid="scam-flag">
              Possible scam
            </span>
          ) : null}
          {item.status !== "ACTIVE" ? <ThreadStatusBadge status={item.status} /> : null}
        </span>
        <span className="text-sm text-muted">About {threadSubject(item)}</span>
        {item.lastMessage ? <span className="line-clamp-2 text-sm break-words text-ink">{item.lastMessage}</span> : null}
        <span className="text-xs text-muted">
          <DateTime iso={item.lastMessageAt} timeZone={timeZone} />
        </span>
      </Link>
    </li>
  );
}
