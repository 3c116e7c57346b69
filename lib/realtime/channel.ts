import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";

/**
 * The PostgreSQL channels every app instance LISTENs on (lib/realtime/hub.ts), and the signals services
 * send on them. A signal is sent with the caller's transaction, so PostgreSQL delivers it only when that
 * transaction commits. Services call these downward; nothing here imports a service.
 */

/**
 * New notifications; a payload is `<userId>:<notificationId>`, so an instance with no stream of that user
 * skips it without a query (a bare notification id, as sent before, is still understood).
 */
export const NOTIFICATION_CHANNEL = "tag_service_notifications";

/** Revoked credentials; a payload is `session:<ids>` or `api-key:<ids>`, comma-separated. */
export const CREDENTIALS_REVOKED_CHANNEL = "tag_service_credentials_revoked";

/** Tells every instance's live streams about a stored notification. */
export async function signalNotification(db: Executor, notification: { id: string; userId: string }): Promise<void> {
  await db.execute(sql`select pg_notify(${NOTIFICATION_CHANNEL}, ${`${notification.userId}:${notification.id}`})`);
}

export interface NotificationSignal {
  notificationId: string;
  /** Undefined for a payload of the earlier form (the id alone). */
  userId?: string;
}

/** The notification a payload names, or undefined for anything malformed. */
export function parseNotificationSignal(payload: string): NotificationSignal | undefined {
  const separator = payload.indexOf(":");
  if (separator < 0) return UUID.test(payload) ? { notificationId: payload } : undefined;
  const userId = payload.slice(0, separator);
  const notificationId = payload.slice(separator + 1);
  return UUID.test(userId) && UUID.test(notificationId) ? { userId, notificationId } : undefined;
}

/**
 * Changes to a conversation the finder's live page shows: a message added (`message`) or its status
 * changed (`status`). A payload is `<threadId>:<kind>`; the finder's stream is keyed by the thread, as the
 * finder has no account.
 */
export const THREAD_CHANNEL = "tag_service_thread_events";

export type ThreadEventKind = "message" | "status";

export interface ThreadSignal {
  threadId: string;
  kind: ThreadEventKind;
}

/** Tells every instance's finder streams of this thread about a change (delivered on commit). */
export async function signalThreadEvent(db: Executor, signal: ThreadSignal): Promise<void> {
  await db.execute(sql`select pg_notify(${THREAD_CHANNEL}, ${`${signal.threadId}:${signal.kind}`})`);
}

/** The thread event a payload names, or undefined for anything malformed. */
export function parseThreadSignal(payload: string): ThreadSignal | undefined {
  const [threadId, kind] = payload.split(":");
  if (!threadId || !UUID.test(threadId) || (kind !== "message" && kind !== "status")) return undefined;
  return { threadId, kind };
}

export type RevokedCredentialKind = "session" | "api-key";

export interface CredentialRevocation {
  kind: RevokedCredentialKind;
  ids: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// NOTIFY payloads must stay under 8000 bytes: 100 ids of 37 characters each, per message.
const IDS_PER_NOTIFY = 100;

/** Announces revoked sessions or API keys, so every instance closes the streams opened with them. */
export async function announceRevokedCredentials(db: Executor, kind: RevokedCredentialKind, ids: readonly string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += IDS_PER_NOTIFY) {
    const payload = `${kind}:${ids.slice(start, start + IDS_PER_NOTIFY).join(",")}`;
    await db.execute(sql`select pg_notify(${CREDENTIALS_REVOKED_CHANNEL}, ${payload})`);
  }
}

/** The revocation a payload names, or undefined for anything malformed. */
export function parseCredentialRevocation(payload: string): CredentialRevocation | undefined {
  const separator = payload.indexOf(":");
  const kind = payload.slice(0, separator);
  if (kind !== "session" && kind !== "api-key") return undefined;
  const ids = payload.slice(separator + 1).split(",").filter((id) => UUID.test(id));
  return ids.length ? { kind, ids } : undefined;
}
