import Link from "next/link";
import { DateTime } from "@/components/dashboard/date-time";
import { tagStatusLabels, tagStatusList } from "@/components/tags/labels";
import { leadsBeyondList, notificationAction, notificationOpenPath, type NotificationItem } from "@/lib/services/notifications";
import { TagStatusBadge } from "@/components/tags/status-badge";
import type { TagRecord, TagStatus } from "@/lib/services/tags";
import { listHref } from "./tags/params";

export const cardClass = "flex flex-col rounded-xl border border-line bg-white p-5 shadow-sm sm:p-6";
const linkClass = "font-semibold text-brand-700 underline hover:text-brand-800";

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The overview's tag summary: how many in each status (each a link to the filtered list) and what needs the owner. */
export function TagsSummary({ counts }: { counts: Record<TagStatus, number> }) {
  const total = tagStatusList.reduce((sum, status) => sum + counts[status], 0);
  const missing = counts.LOST + counts.STOLEN;
  return (
    <section aria-labelledby="tags-summary-heading" className={cardClass}>
      <h2 id="tags-summary-heading" className="text-lg font-semibold text-ink">
        Your tags
      </h2>
      {total === 0 ? (
        <p className="mt-2 text-sm text-muted">You have no tags yet. Activate the code printed on a tag to start.</p>
      ) : (
        <>
          <ul aria-label="Tags by status" className="mt-3 flex flex-wrap gap-2">
            {tagStatusList
              .filter((status) => counts[status] > 0)
              .map((status) => (
                <li key={status}>
                  <Link
                    href={listHref({ status })}
                    data-status={status}
                    className="inline-flex min-h-11 items-center gap-1.5 rounded-lg border border-line px-3 text-sm text-ink hover:border-brand-700 hover:bg-brand-50"
                  >
                    <span className="font-bold">{counts[status]}</span> {tagStatusLabels[status]}
                  </Link>
                </li>
              ))}
          </ul>
          {counts.PENDING_SETUP > 0 || missing > 0 ? (
            <ul aria-label="Needs your attention" className="mt-4 flex flex-col gap-2 text-sm text-ink">
              {counts.PENDING_SETUP > 0 ? (
                <li>
                  {plural(counts.PENDING_SETUP, "tag needs", "tags need")} a profile before finders see anything.{" "}
                  <Link href={listHref({ status: "PENDING_SETUP" })} className={linkClass}>
                    Finish setting up
                  </Link>
                </li>
              ) : null}
              {missing > 0 ? (
                <li>
                  {plural(missing, "tag is", "tags are")} marked lost or stolen: finders who scan {missing === 1 ? "it" : "them"} see your message.{" "}
                  <Link href={listHref({ status: counts.LOST > 0 ? "LOST" : "STOLEN" })} className={linkClass}>
                    Review
                  </Link>
                </li>
              ) : null}
            </ul>
          ) : null}
        </>
      )}
      <div className="mt-4 flex flex-wrap gap-3">
        <Link href="/dashboard/tags" className="btn-primary">
          Open your tags
        </Link>
        <Link href="/dashboard/tags/activate" className="btn-secondary">
          Activate a tag
        </Link>
      </div>
    </section>
  );
}

/**
 * Lost and stolen tags first, above everything else: each opens its tag's lost mode (the message, the
 * reward, the poster) in one tap.
 */
export function MissingNow({ tags, timeZone }: { tags: TagRecord[]; timeZone: string }) {
  if (tags.length === 0) return null;
  return (
    <section aria-labelledby="missing-heading" className="rounded-xl border-2 border-danger-700 bg-white p-5 shadow-sm sm:p-6">
      <h2 id="missing-heading" className="text-lg font-bold text-danger-700">
        {tags.length === 1 ? "Missing right now" : `${tags.length} missing right now`}
      </h2>
      <ul aria-label="Missing right now" className="mt-3 flex flex-col divide-y divide-line">
        {tags.map((tag) => (
          <li key={tag.id} className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0">
            <div className="flex min-w-0 flex-col gap-0.5">
              <span className="flex flex-wrap items-center gap-2">
                <span className="font-semibold break-words text-ink">{tag.itemName ?? "Unnamed tag"}</span>
                <TagStatusBadge status={tag.status} />
              </span>
              <span className="text-sm text-muted">{tag.lastScannedAt ? (
                  <>
                    Last scanned <DateTime iso={tag.lastScannedAt} timeZone={timeZone} />
                  </>
                ) : (
                  "Not scanned since you marked it"
                )}</span>
            </div>
            <Link href={`/dashboard/tags/${tag.id}#lost-mode`} className="btn-primary">
              Open lost mode<span className="sr-only"> for {tag.itemName ?? "the unnamed tag"}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The overview's latest notifications, each opening (and so marking read) what it is about. */
export function LatestNotifications({ items, unread, timeZone }: { items: NotificationItem[]; unread: number; timeZone: string }) {
  return (
    <section aria-labelledby="latest-notifications-heading" className={cardClass}>
      <h2 id="latest-notifications-heading" className="text-lg font-semibold text-ink">
        Latest notifications
      </h2>
      <p className="mt-1 text-sm text-muted">{unread === 0 ? "Nothing unread." : `${plural(unread, "unread notification", "unread notifications")}.`}</p>
      {items.length === 0 ? (
        <p className="mt-3 text-sm text-muted">When someone scans your tag, writes to you or sends you a tag, it shows up here.</p>
      ) : (
        <ul aria-label="Latest notifications" className="mt-3 flex flex-col divide-y divide-line">
          {items.map((item) => {
            const action = notificationAction(item.type, item.data);
            return (
              <li key={item.id} data-read={item.read} className="py-3 first:pt-0">
                <p className="flex flex-wrap items-center gap-2">
                  {item.read ? null : <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">Unread</span>}
                  {/* A plain link: opening marks the notification read, so nothing may prefetch it. */}
                  <a href={leadsBeyondList(action) ? notificationOpenPath(item.id) : action.path} className={`text-sm break-words ${linkClass}`}>
                    {item.title}
                  </a>
                </p>
                <p className="mt-0.5 text-sm break-words text-ink">{item.body}</p>
                <p className="mt-0.5 text-xs text-muted">
                  <DateTime iso={item.createdAt} timeZone={timeZone} />
                </p>
              </li>
            );
          })}
        </ul>
      )}
      <div className="mt-4">
        <Link href="/dashboard/notifications" className="btn-secondary">
          See all notifications
        </Link>
      </div>
    </section>
  );
}
