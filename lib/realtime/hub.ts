import { DEFAULT_OPERATION_DEADLINE_MS, withDatabaseBudget } from "@/db/availability";
import { getDatabase, type DatabaseHandle } from "@/db/client";
import { describeError, log } from "@/lib/log";
import { loadStreamNotifications, type StreamNotification } from "./notifications";
import { CREDENTIALS_REVOKED_CHANNEL, NOTIFICATION_CHANNEL, THREAD_CHANNEL, parseCredentialRevocation, parseNotificationSignal, parseThreadSignal, type ThreadEventKind } from "./channel";

/** A stream open on this instance: the hub hands it its user's notifications and may close it. */
export interface StreamSubscriber {
  readonly userId: string;
  /** The credential the stream was opened with: revoking it closes the stream. */
  readonly sessionId?: string;
  readonly apiKeyId?: string;
  deliver(notification: StreamNotification): void;
  /**
   * Ends the stream; must unregister it from the hub (idempotent). `superseded`: a newer stream of the
   * same user took its place, which the client is told so that it does not reconnect at once;
   * `revoked`: its session or API key was revoked (a reconnect would be refused anyway).
   */
  close(reason?: "superseded" | "revoked"): void;
}

/** A finder's stream of one conversation (keyed by the thread: the finder has no account). */
export interface ThreadStreamSubscriber {
  readonly threadId: string;
  /** A message was added to the thread, or its status changed. */
  changed(kind: ThreadEventKind): void;
  /** Ends the stream; must unregister it from the hub (idempotent). */
  close(reason?: "superseded"): void;
}

/** Finder streams per thread on one instance; one more closes the oldest (the link open in many tabs). */
export const MAX_STREAMS_PER_THREAD = 5;

/** Streams per user on one instance; opening one more closes the oldest (a forgotten tab, a leaked EventSource). */
export const MAX_STREAMS_PER_USER = 5;

/** The most notifications one delivery query loads. */
export const DELIVERY_BATCH = 500;

/** What a hub has done since it started: how many signals it took, skipped and how many queries it made. */
export interface HubStats {
  signals: number;
  /** Signals for users with no stream open here: dropped without a query. */
  skipped: number;
  /** Queries that loaded notifications to deliver (each loads up to DELIVERY_BATCH). */
  loads: number;
  delivered: number;
}

/**
 * The fan-out of one app instance: a single LISTEN on the notification channel for a database
 * handle, and the streams open here by user. NOTIFY carries the user and notification ids: a signal for a
 * user with no stream here costs nothing, and the rest are loaded in batches (the signals that arrive while
 * one batch loads make the next), one batch after another, so frames keep commit order and a burst of N
 * notifications costs a handful of queries, not N.
 */
export class NotificationHub {
  private readonly streams = new Map<string, StreamSubscriber[]>();
  private readonly threadStreams = new Map<string, ThreadStreamSubscriber[]>();
  private starting: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private pending: string[] = [];
  private draining = false;
  private readonly counters: HubStats = { signals: 0, skipped: 0, loads: 0, delivered: 0 };
  private stopped = false;

  constructor(
    readonly handle: DatabaseHandle,
    private readonly maxStreamsPerUser = MAX_STREAMS_PER_USER,
  ) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Starts the LISTEN once; a failed start is retried by the next caller. */
  start(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error("notification hub stopped"));
    this.starting ??= this.listen().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  private async listen(): Promise<void> {
    const onPayload = (payload: string) => this.received(payload);
    const onRevoked = (payload: string) => this.revoked(payload);
    const onThread = (payload: string) => this.threadChanged(payload);
    if (this.handle.kind === "postgres") {
      // postgres.js holds LISTEN on a dedicated connection of its own and re-listens after a reconnect.
      const request = await this.handle.sql.listen(NOTIFICATION_CHANNEL, onPayload);
      const revocations = await this.handle.sql.listen(CREDENTIALS_REVOKED_CHANNEL, onRevoked);
      const threadEvents = await this.handle.sql.listen(THREAD_CHANNEL, onThread);
      this.unlisten = async () => {
        await Promise.all([request.unlisten(), revocations.unlisten(), threadEvents.unlisten()]);
      };
    } else {
      const unlisten = await this.handle.pglite.listen(NOTIFICATION_CHANNEL, onPayload);
      const unlistenRevocations = await this.handle.pglite.listen(CREDENTIALS_REVOKED_CHANNEL, onRevoked);
      const unlistenThreads = await this.handle.pglite.listen(THREAD_CHANNEL, onThread);
      this.unlisten = async () => {
        await Promise.all([unlisten(), unlistenRevocations(), unlistenThreads()]);
      };
    }
    // stop() raced the start: drop what was just made.
    if (this.stopped) await this.release();
  }

  /** Adds a stream; returns its unregister function. Closes the user's oldest beyond the limit. */
  register(subscriber: StreamSubscriber): () => void {
    const list = this.streams.get(subscriber.userId) ?? [];
    list.push(subscriber);
    this.streams.set(subscriber.userId, list);
    while (list.length > this.maxStreamsPerUser) list.shift()!.close("superseded");
    return () => this.unregister(subscriber);
  }

  private unregister(subscriber: StreamSubscriber): void {
    const list = this.streams.get(subscriber.userId);
    if (!list) return;
    const index = list.indexOf(subscriber);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0) this.streams.delete(subscriber.userId);
  }

  /** Adds a finder's stream of a thread; returns its unregister function. Closes the thread's oldest beyond the limit. */
  registerThread(subscriber: ThreadStreamSubscriber): () => void {
    const list = this.threadStreams.get(subscriber.threadId) ?? [];
    list.push(subscriber);
    this.threadStreams.set(subscriber.threadId, list);
    while (list.length > MAX_STREAMS_PER_THREAD) list.shift()!.close("superseded");
    return () => {
      const current = this.threadStreams.get(subscriber.threadId);
      if (!current) return;
      const index = current.indexOf(subscriber);
      if (index >= 0) current.splice(index, 1);
      if (current.length === 0) this.threadStreams.delete(subscriber.threadId);
    };
  }

  threadStreamCount(threadId?: string): number {
    if (threadId !== undefined) return this.threadStreams.get(threadId)?.length ?? 0;
    let total = 0;
    for (const list of this.threadStreams.values()) total += list.length;
    return total;
  }

  /** A thread event costs no query here: the stream tells its page, which reloads what it shows. */
  private threadChanged(payload: string): void {
    if (this.stopped) return;
    const signal = parseThreadSignal(payload);
    if (!signal) return;
    for (const subscriber of [...(this.threadStreams.get(signal.threadId) ?? [])]) subscriber.changed(signal.kind);
  }

  streamCount(userId?: string): number {
    if (userId !== undefined) return this.streams.get(userId)?.length ?? 0;
    let total = 0;
    for (const list of this.streams.values()) total += list.length;
    return total;
  }

  /** Closes every stream here opened with a session or API key that was just revoked. */
  private revoked(payload: string): void {
    const revocation = parseCredentialRevocation(payload);
    if (!revocation || this.stopped) return;
    const ids = new Set(revocation.ids);
    for (const list of [...this.streams.values()]) {
      for (const subscriber of [...list]) {
        const credential = revocation.kind === "session" ? subscriber.sessionId : subscriber.apiKeyId;
        if (credential && ids.has(credential)) subscriber.close("revoked");
      }
    }
  }

  stats(): HubStats {
    return { ...this.counters };
  }

  private received(payload: string): void {
    if (this.stopped) return;
    this.counters.signals += 1;
    const signal = parseNotificationSignal(payload);
    if (!signal || this.streams.size === 0 || (signal.userId !== undefined && !this.streams.has(signal.userId))) {
      this.counters.skipped += 1;
      return;
    }
    this.pending.push(signal.notificationId);
    if (!this.draining) void this.drain();
  }

  /** Delivers the pending notifications, a batch per query, until none is left. */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length && !this.stopped) {
        const batch = this.pending.splice(0, DELIVERY_BATCH);
        try {
          await this.deliver(batch);
        } catch (error) {
          log.warn("notification stream delivery failed", { notifications: batch.length, ...describeError(error) });
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async deliver(ids: string[]): Promise<void> {
    // Its own budget: the LISTEN callback may run in the context of whichever request opened the hub.
    const loaded = await withDatabaseBudget(DEFAULT_OPERATION_DEADLINE_MS, () => loadStreamNotifications(this.handle.db, ids));
    this.counters.loads += 1;
    if (this.stopped) return;
    const byId = new Map(loaded.map((notification) => [notification.id, notification]));
    // In the order the signals came (commit order); a copy of each list, as a subscriber may close meanwhile.
    for (const id of ids) {
      const notification = byId.get(id);
      if (!notification) continue;
      for (const subscriber of [...(this.streams.get(notification.userId) ?? [])]) {
        subscriber.deliver(notification);
        this.counters.delivered += 1;
      }
    }
  }

  /** Closes every stream and drops the LISTEN (quietly when the handle is already closed). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const list of [...this.streams.values()]) for (const subscriber of [...list]) subscriber.close();
    this.streams.clear();
    for (const list of [...this.threadStreams.values()]) for (const subscriber of [...list]) subscriber.close();
    this.threadStreams.clear();
    await this.release();
  }

  private async release(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    if (!unlisten) return;
    try {
      await unlisten();
    } catch {
      // The handle was closed first; its listener went with it.
    }
  }
}

type HubGlobal = { __tagServiceNotificationHub?: NotificationHub };
const store = globalThis as HubGlobal;

/**
 * The process's hub, on globalThis so Next's bundles share one LISTEN. Keyed by the database handle:
 * when the handle is replaced (tests install one per file) the old hub is stopped and a new one made.
 */
export function getNotificationHub(handle: DatabaseHandle = getDatabase()): NotificationHub {
  const current = store.__tagServiceNotificationHub;
  if (current && current.handle === handle && !current.isStopped) return current;
  if (current) void current.stop();
  const hub = new NotificationHub(handle);
  store.__tagServiceNotificationHub = hub;
  return hub;
}

/** The streams open on this instance (the metrics' live_streams), without starting a hub where none runs. */
export function openStreamCounts(): { notifications: number; threads: number } {
  const current = store.__tagServiceNotificationHub;
  if (!current || current.isStopped) return { notifications: 0, threads: 0 };
  return { notifications: current.streamCount(), threads: current.threadStreamCount() };
}

/** Stops the process's hub, if any (shutdown; tests before they close their database). */
export async function stopNotificationHub(): Promise<void> {
  const current = store.__tagServiceNotificationHub;
  store.__tagServiceNotificationHub = undefined;
  await current?.stop();
}
