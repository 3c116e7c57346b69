import { inArray, sql } from "drizzle-orm";
import { schema } from "@/db/client";
import type { Notification } from "@/db/schema";
import { type BulkJob, enqueueJobs } from "@/lib/jobs/enqueue";
import { NOTIFICATION_CHANNEL } from "@/lib/realtime/channel";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { channelEnabled, defaultPreferences, deliverAfter, isUrgent, type NotificationType } from "./rules";

export interface NotifyManyItem {
  userId: string;
  title: string;
  body: string;
  data?: Record<string, unknown>;
}

/**
 * notify() for many users at once, set-based: one INSERT of every notification, one read of their
 * preferences, one pg_notify statement for the live streams and one INSERT of the e-mail jobs and one of
 * the push jobs (each per its user's preferences, held until the end of their quiet hours unless the
 * type is urgent), all in one transaction: a fan-out's batch of hundreds costs a handful of statements.
 * Answers the stored notifications in the items' order.
 */
export async function notifyMany(ctx: ServiceContext, type: NotificationType, items: readonly NotifyManyItem[], now = new Date()): Promise<Notification[]> {
  if (items.length === 0) return [];
  return withTransaction(ctx, async (tx) => {
    const rows = await tx.db
      .insert(schema.notifications)
      .values(items.map((item) => ({ userId: item.userId, type, title: item.title, body: item.body, data: item.data ?? {} })))
      .returning();
    const userIds = [...new Set(items.map((item) => item.userId))];
    const saved = await tx.db.select().from(schema.notificationPreferences).where(inArray(schema.notificationPreferences.userId, userIds));
    const preferencesByUser = new Map(saved.map((row) => [row.userId, row]));

    const emails: BulkJob<{ notificationId: string }>[] = [];
    const pushes: BulkJob<{ notificationId: string }>[] = [];
    for (const notification of rows) {
      const preferences = preferencesByUser.get(notification.userId) ?? defaultPreferences(notification.userId);
      const startAfter = deliverAfter(preferences, now, isUrgent(type, notification.data ?? {})) ?? undefined;
      if (channelEnabled(preferences, type, "email")) emails.push({ data: { notificationId: notification.id }, startAfter });
      if (channelEnabled(preferences, type, "push")) pushes.push({ data: { notificationId: notification.id }, startAfter });
    }
    await enqueueJobs(tx, "notifications.email", emails);
    await enqueueJobs(tx, "notifications.push", pushes);
    // Delivered at commit, as notify()'s signalNotification: one statement for the whole batch.
    const payloads = rows.map((row) => `${row.userId}:${row.id}`);
    await tx.db.execute(sql`select pg_notify(${NOTIFICATION_CHANNEL}, payload) from json_array_elements_text(${JSON.stringify(payloads)}::json) as payload`);
    return rows;
  });
}
