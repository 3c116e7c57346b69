"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

/** The frame the stream sends (docs/decisions/0030-live-notifications.md). */
interface StreamedNotification {
  id: string;
  type: string;
  title: string;
  body: string;
  createdAt: string;
}

function parseFrame(data: string): StreamedNotification | null {
  try {
    const value = JSON.parse(data) as Partial<StreamedNotification>;
    if (typeof value.id !== "string" || typeof value.title !== "string" || typeof value.createdAt !== "string") return null;
    return { id: value.id, type: String(value.type ?? ""), title: value.title, body: String(value.body ?? ""), createdAt: value.createdAt };
  } catch {
    return null;
  }
}

const LIST_PATH = "/dashboard/notifications";
/** What a finder sends (a message, where they are) is shown as an alert, not only counted: it may be urgent. */
const ALERTED_TYPES = new Set(["MESSAGE_RECEIVED", "FINDER_LOCATION_SHARED"]);
/** The notification's own "open" route (it marks it read and leads to the conversation's map). */
const openPath = (id: string) => `${LIST_PATH}/${encodeURIComponent(id)}/open`;
/** Pages that show notifications (the list, the overview's latest) or messages: refreshed when one arrives. */
const LIVE_PAGES = new Set([LIST_PATH, "/dashboard"]);
const LIVE_SECTIONS = ["/dashboard/messages"];

function isLivePage(pathname: string): boolean {
  return LIVE_PAGES.has(pathname) || LIVE_SECTIONS.some((section) => pathname === section || pathname.startsWith(`${section}/`));
}

export function bellLabel(count: number): string {
  return `Notifications, ${count} unread`;
}

/**
 * The header's link to the notifications page with the unread count. The server renders the count
 * (`initialUnread`, counted at `countedAt`); each notification the live stream brings adds one, once
 * per id (a reconnect replays from Last-Event-ID; a first connect replays nothing). New ones are
 * announced politely in a live region. When the server renders a fresh count (after a mark-read
 * action revalidates the layout, `countedAt` changes), that count wins. No comparison of createdAt
 * with `countedAt`: one is the database's clock and the other the app's. On the pages that show
 * notifications (the list, the overview) or messages (the inbox, a conversation), a new one also
 * refreshes the page's server components.
 */
export function NotificationBell({ initialUnread, countedAt }: { initialUnread: number; countedAt: string }) {
  const [count, setCount] = useState(initialUnread);
  const [announcement, setAnnouncement] = useState("");
  // A finder's message or shared place is shown as an alert on whatever page is open (ALERTED_TYPES).
  const [messageAlert, setMessageAlert] = useState<StreamedNotification | null>(null);
  const [basis, setBasis] = useState(countedAt);
  const seen = useRef(new Set<string>());
  const router = useRouter();
  const pathname = usePathname();
  const onLivePage = useRef(false);
  useEffect(() => {
    onLivePage.current = isLivePage(pathname);
  }, [pathname]);

  // A fresh server count replaces the live one (React's "adjust state while rendering" pattern).
  if (basis !== countedAt) {
    setBasis(countedAt);
    setCount(initialUnread);
  }
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    const onNotification = (event: MessageEvent<string>) => {
      const notification = parseFrame(event.data);
      if (!notification || seen.current.has(notification.id)) return;
      seen.current.add(notification.id);
      setCount((value) => value + 1);
      if (ALERTED_TYPES.has(notification.type)) setMessageAlert(notification);
      else setAnnouncement(`New notification: ${notification.title}`);
      if (onLivePage.current) router.refresh();
    };
    // Too many open tabs: the server ended this (the oldest) stream for a newer one. Reconnecting now
    // would push out another tab's; this one reconnects when it is looked at again, and re-renders the
    // page for a fresh count rather than replaying what it missed.
    const onSuperseded = () => {
      source?.close();
      source = null;
    };
    const connect = () => {
      source = new EventSource("/api/v1/notifications/stream");
      source.addEventListener("notification", onNotification);
      source.addEventListener("superseded", onSuperseded);
    };
    const onVisible = () => {
      if (source || document.visibilityState !== "visible") return;
      connect();
      router.refresh();
    };
    connect();
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("focus", onVisible);
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("focus", onVisible);
      source?.close();
    };
  }, [router]);

  return (
    <>
      {messageAlert ? (
        <div role="alert" data-testid="message-alert" className="fixed inset-x-3 top-20 z-50 mx-auto flex max-w-md items-start gap-3 rounded-xl border-2 border-brand-700 bg-white p-4 text-ink shadow-lg">
          <div className="min-w-0 flex-1">
            <p className="font-bold break-words">{messageAlert.title}</p>
            {messageAlert.body ? <p className="mt-1 line-clamp-2 text-sm break-words">{messageAlert.body}</p> : null}
            {messageAlert.type === "FINDER_LOCATION_SHARED" ? (
              <Link href={openPath(messageAlert.id)} onClick={() => setMessageAlert(null)} className="mt-2 inline-block text-sm font-semibold text-brand-700 underline">
                See it on the map
              </Link>
            ) : (
              <Link href="/dashboard/messages" onClick={() => setMessageAlert(null)} className="mt-2 inline-block text-sm font-semibold text-brand-700 underline">
                Open messages
              </Link>
            )}
          </div>
          <button
            type="button"
            onClick={() => setMessageAlert(null)}
            aria-label="Dismiss this alert"
            className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-md text-xl font-bold text-ink hover:bg-brand-50"
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ) : null}
      <div className="relative flex items-center">
        <Link
          href={LIST_PATH}
          aria-label={bellLabel(count)}
          data-unread={count}
          className="relative inline-flex min-h-11 min-w-11 items-center justify-center rounded-md text-ink hover:bg-brand-50 hover:text-brand-800"
        >
          <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="1.8">
            <path strokeLinecap="round" strokeLinejoin="round" d="M15 17h5l-1.4-1.4A2 2 0 0 1 18 14.2V11a6 6 0 1 0-12 0v3.2a2 2 0 0 1-.6 1.4L4 17h5m6 0a3 3 0 1 1-6 0m6 0H9" />
          </svg>
          {count > 0 ? (
            <span aria-hidden="true" className="absolute top-0.5 right-0.5 min-w-5 rounded-full bg-danger-700 px-1 text-center text-xs leading-5 font-bold text-white">
              {count > 99 ? "99+" : count}
            </span>
          ) : null}
        </Link>
        <p role="status" aria-live="polite" aria-atomic="true" data-notification-announcer="" className="sr-only">
          {announcement}
        </p>
      </div>
    </>
  );
}
