import { and, asc, eq, gt, inArray, or } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";

/**
 * The live streams' reads of the notifications table on a bare database handle: the hub's batch by id and
 * a reconnecting client's replay. They live beside the hub (below the services) so that the realtime
 * adapter does not import the notifications domain, which imports it to publish.
 */

/** What a stream frame carries: the notification without its delivery details. */
export interface StreamNotification {
  id: string;
  userId: string;
  type: string;
  title: string;
  body: string;
  createdAt: Date;
}

/** The most a reconnecting client gets replayed; older misses are in GET /notifications. */
export const REPLAY_LIMIT = 500;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const streamColumns = {
  id: schema.notifications.id,
  userId: schema.notifications.userId,
  type: schema.notifications.type,
  title: schema.notifications.title,
  body: schema.notifications.body,
  createdAt: schema.notifications.createdAt,
};

/** Several notifications in one query (the live streams' batch), in no particular order; unknown ids are left out. */
export async function loadStreamNotifications(db: Executor, ids: readonly string[]): Promise<StreamNotification[]> {
  const valid = ids.filter((id) => UUID_PATTERN.test(id));
  if (!valid.length) return [];
  return db.select(streamColumns).from(schema.notifications).where(inArray(schema.notifications.id, valid));
}

/**
 * What a client that last saw `lastEventId` missed, oldest first (createdAt, then id, the same order
 * the cursor compares in). An id that is malformed, unknown or another user's replays nothing: the
 * client cannot use someone else's id to learn where their stream stands.
 */
export async function notificationsAfter(db: Executor, userId: string, lastEventId: string | null | undefined, limit = REPLAY_LIMIT): Promise<StreamNotification[]> {
  if (!lastEventId || !UUID_PATTERN.test(lastEventId)) return [];
  const n = schema.notifications;
  const [anchor] = await db
    .select({ createdAt: n.createdAt })
    .from(n)
    .where(and(eq(n.id, lastEventId), eq(n.userId, userId)));
  if (!anchor) return [];
  return db
    .select(streamColumns)
    .from(n)
    .where(and(eq(n.userId, userId), or(gt(n.createdAt, anchor.createdAt), and(eq(n.createdAt, anchor.createdAt), gt(n.id, lastEventId)))))
    .orderBy(asc(n.createdAt), asc(n.id))
    .limit(limit);
}
