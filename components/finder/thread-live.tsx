"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

/**
 * Keeps the finder's thread page live: a stream keyed by the thread token tells it when a message was
 * added or the conversation closed, and the page re-renders from the server (router.refresh), so the
 * finder sees the owner's reply without reloading. Without JavaScript the page's "Check for replies" link
 * reloads it instead.
 */
export function ThreadLive({ token, updatedLabel }: { token: string; updatedLabel: string }) {
  const router = useRouter();
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    const stop = () => {
      source?.close();
      source = null;
    };
    const connect = () => {
      source = new EventSource(`/api/v1/scan/thread/${encodeURIComponent(token)}/stream`);
      source.addEventListener("thread", () => {
        setAnnouncement(updatedLabel);
        router.refresh();
      });
      // Closed or blocked: nothing more will come; the page shows the new state.
      source.addEventListener("closed", () => {
        stop();
        router.refresh();
      });
      // Too many tabs of this conversation: reconnecting now would push out another; this one
      // reconnects when it is looked at again.
      source.addEventListener("superseded", stop);
      // A refusal (403, 404, 429) is not retried by EventSource; a dropped connection is (retry: 3000).
      source.addEventListener("error", () => {
        if (source?.readyState === EventSource.CLOSED) stop();
      });
    };
    const onVisible = () => {
      if (source || document.visibilityState !== "visible") return;
      connect();
      router.refresh();
    };
    connect();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      stop();
    };
  }, [token, updatedLabel, router]);

  return (
    <p role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="thread-live">
      {announcement}
    </p>
  );
}
