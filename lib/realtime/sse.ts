import { DEFAULT_OPERATION_DEADLINE_MS, withDatabaseBudget } from "@/db/availability";
import type { Executor } from "@/db/client";
import { notificationsAfter, type StreamNotification } from "./notifications";
import type { ThreadEventKind } from "./channel";
import type { NotificationHub, StreamSubscriber, ThreadStreamSubscriber } from "./hub";

export const RETRY_FRAME = "retry: 3000\n\n";
export const PING_FRAME = ": ping\n\n";
/**
 * Sent before the server closes a user's oldest stream for a newer one (at most 5 per user). Beyond the
 * frames of docs/decisions/0030-live-notifications.md: EventSource would reconnect after `retry:` and push out another stream in
 * turn, so our client stops on this event and reconnects when its page is looked at again.
 */
export const SUPERSEDED_FRAME = `event: superseded\ndata: ${JSON.stringify({ reason: "A newer stream of this account replaced this one (at most 5 are open at once)." })}\n\n`;

/** One SSE event: `id`, `event: notification` and the JSON data on one line (JSON has no raw newlines). */
export function formatNotificationFrame(notification: StreamNotification): string {
  const data = JSON.stringify({
    id: notification.id,
    type: notification.type,
    title: notification.title,
    body: notification.body,
    createdAt: notification.createdAt.toISOString(),
  });
  return `id: ${notification.id}\nevent: notification\ndata: ${data}\n\n`;
}

/** Keeps proxies and load balancers from closing an idle stream. */
export const DEFAULT_PING_INTERVAL_MS = 25_000;
let pingIntervalMs = DEFAULT_PING_INTERVAL_MS;

/** Tests shorten the ping; no argument restores the default. */
export function setPingInterval(ms: number = DEFAULT_PING_INTERVAL_MS): void {
  pingIntervalMs = ms;
}

export const EVENT_STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
} as const;

export interface OpenStreamOptions {
  hub: NotificationHub;
  db: Executor;
  userId: string;
  /** The credential the stream was opened with: the stream closes when it is revoked (on any instance). */
  sessionId?: string;
  apiKeyId?: string;
  /**
   * Asked at every ping: false closes the stream. The backstop for a revocation whose NOTIFY this instance
   * missed (its LISTEN connection was down) or a change that sends none (a suspension).
   */
  stillAuthorized?: () => Promise<boolean>;
  /** The last id the client saw (the Last-Event-ID header or `?lastEventId=`). */
  lastEventId?: string | null;
  /** The request's signal: the client going away ends the stream. */
  signal?: AbortSignal;
}

/**
 * An SSE response of the user's notifications: missed ones after `lastEventId`, then live ones.
 * The stream registers with the hub before the replay query, buffering live frames meanwhile, so a
 * notification committed during the replay is neither lost nor sent twice.
 */
export async function openNotificationStream({ hub, db, userId, sessionId, apiKeyId, stillAuthorized, lastEventId, signal }: OpenStreamOptions): Promise<Response> {
  await hub.start();
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let replaying = true;
  const buffered: StreamNotification[] = [];
  const replayed = new Set<string>();
  let ping: ReturnType<typeof setInterval> | undefined;

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      close();
    },
  });

  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  };
  const send = (notification: StreamNotification) => {
    if (!replayed.has(notification.id)) write(formatNotificationFrame(notification));
  };

  const subscriber: StreamSubscriber = {
    userId,
    sessionId,
    apiKeyId,
    deliver: (notification) => (replaying ? buffered.push(notification) : send(notification)),
    close: (reason) => {
      if (reason === "superseded") write(SUPERSEDED_FRAME);
      close();
    },
  };
  const unregister = hub.register(subscriber);
  const onAbort = () => close();

  function close() {
    if (closed) return;
    closed = true;
    if (ping) clearInterval(ping);
    unregister();
    signal?.removeEventListener("abort", onAbort);
    try {
      controller.close();
    } catch {
      // Already cancelled by the reader.
    }
  }

  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) close();

  try {
    const missed = await notificationsAfter(db, userId, lastEventId);
    write(RETRY_FRAME);
    for (const notification of missed) {
      write(formatNotificationFrame(notification));
      replayed.add(notification.id);
    }
    replaying = false;
    for (const notification of buffered.splice(0)) send(notification);
  } catch (error) {
    close();
    throw error;
  }
  if (!closed) {
    ping = setInterval(() => {
      write(PING_FRAME);
      if (stillAuthorized) {
        // A failed check (the database away) keeps the stream: revocations still arrive by NOTIFY.
        void withDatabaseBudget(DEFAULT_OPERATION_DEADLINE_MS, stillAuthorized).then(
          (authorized) => authorized || close(),
          () => undefined,
        );
      }
    }, pingIntervalMs);
  }

  return new Response(body, { status: 200, headers: EVENT_STREAM_HEADERS });
}

/** Sent to a finder's stream when its thread changed: the page reloads what it shows. */
export function formatThreadFrame(kind: ThreadEventKind): string {
  return `event: thread\ndata: ${JSON.stringify({ change: kind })}\n\n`;
}

/** Sent before a finder's stream ends because the conversation is no longer open (closed, blocked or gone). */
export function formatThreadClosedFrame(status: string): string {
  return `event: closed\ndata: ${JSON.stringify({ status })}\n\n`;
}

/** The finder's tabs of one thread: at most 5 open per instance (see MAX_STREAMS_PER_THREAD). */
export const THREAD_SUPERSEDED_FRAME = `event: superseded\ndata: ${JSON.stringify({ reason: "A newer stream of this conversation replaced this one (at most 5 are open at once)." })}\n\n`;

export interface OpenThreadStreamOptions {
  hub: NotificationHub;
  threadId: string;
  /**
   * The thread's status now, or null when it is gone. Asked after a status event and at every ping (the
   * backstop for a NOTIFY this instance missed): anything but ACTIVE ends the stream.
   */
  currentStatus: () => Promise<string | null>;
  /** The request's signal: the client going away ends the stream. */
  signal?: AbortSignal;
}

/**
 * A finder's SSE stream of one conversation: `event: thread` when a message is added or its status
 * changes, `event: closed` (then the end) when it is no longer ACTIVE, and the owner's stream's ping and
 * retry. Frames carry no content: the token holder's page reloads the thread itself, so nothing in the
 * stream needs its own access rules.
 */
export async function openThreadStream({ hub, threadId, currentStatus, signal }: OpenThreadStreamOptions): Promise<Response> {
  await hub.start();
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let ping: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      close();
    },
  });
  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  };
  const checkOpen = () =>
    // A failed check (the database away) keeps the stream: events still arrive by NOTIFY.
    withDatabaseBudget(DEFAULT_OPERATION_DEADLINE_MS, currentStatus).then(
      (status) => {
        if (status === "ACTIVE") return true;
        write(formatThreadClosedFrame(status ?? "DELETED"));
        close();
        return false;
      },
      () => true,
    );
  const subscriber: ThreadStreamSubscriber = {
    threadId,
    changed: (kind) => {
      if (kind === "message") write(formatThreadFrame(kind));
      else void checkOpen().then((open) => open && write(formatThreadFrame(kind)));
    },
    close: (reason) => {
      if (reason === "superseded") write(THREAD_SUPERSEDED_FRAME);
      close();
    },
  };
  const unregister = hub.registerThread(subscriber);
  const onAbort = () => close();

  function close() {
    if (closed) return;
    closed = true;
    if (ping) clearInterval(ping);
    unregister();
    signal?.removeEventListener("abort", onAbort);
    try {
      controller.close();
    } catch {
      // Already cancelled by the reader.
    }
  }

  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) close();
  write(RETRY_FRAME);
  if (!closed) {
    ping = setInterval(() => {
      write(PING_FRAME);
      void checkOpen();
    }, pingIntervalMs);
  }
  return new Response(body, { status: 200, headers: EVENT_STREAM_HEADERS });
}
