import { and, count, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { schema } from "@/db/client";
import { notificationType, type Notification } from "@/db/schema";
import type { ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { notificationAction } from "./actions";
import { requireUser } from "@/lib/services/context";

export const notificationTypeSchema = z.enum(notificationType.enumValues);

/** A notification as the API shows it. */
export const notificationItemSchema = z
  .object({
    id: z.uuid(),
    type: notificationTypeSchema,
    title: z.string(),
    body: z.string(),
    read: z.boolean(),
    data: z.record(z.string(), z.unknown()),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Notification" });

export type NotificationItem = z.infer<typeof notificationItemSchema>;

export function toNotificationItem(row: Notification): NotificationItem {
  return { id: row.id, type: row.type, title: row.title, body: row.body, read: row.readAt !== null, data: row.data ?? {}, createdAt: row.createdAt.toISOString() };
}

const NOT_FOUND = "Notification not found.";

/** GET /notifications: the caller's notifications, newest first. */
export async function listNotifications(ctx: ServiceContext, input: { page: number; limit: number }): Promise<{ items: NotificationItem[]; total: number }> {
  const userId = requireUser(ctx).userId;
  const mine = eq(schema.notifications.userId, userId);
  const rows = await ctx.db
    .select()
    .from(schema.notifications)
    .where(mine)
    .orderBy(desc(schema.notifications.createdAt), desc(schema.notifications.id))
    .limit(input.limit)
    .offset((input.page - 1) * input.limit);
  const [counted] = await ctx.db.select({ total: count() }).from(schema.notifications).where(mine);
  return { items: rows.map(toNotificationItem), total: Number(counted?.total ?? 0) };
}

/** GET /notifications/unread-count. */
export async function unreadCount(ctx: ServiceContext): Promise<{ count: number }> {
  const userId = requireUser(ctx).userId;
  const [counted] = await ctx.db
    .select({ total: count() })
    .from(schema.notifications)
    .where(and(eq(schema.notifications.userId, userId), isNull(schema.notifications.readAt)));
  return { count: Number(counted?.total ?? 0) };
}

/** PATCH /notifications/:id/read. Someone else's notification is as missing as one that never existed. Reading twice is fine. */
export async function markNotificationRead(ctx: ServiceContext, id: string, now = new Date()): Promise<{ message: string }> {
  const userId = requireUser(ctx).userId;
  const mine = and(eq(schema.notifications.id, id), eq(schema.notifications.userId, userId));
  const [row] = await ctx.db.select({ readAt: schema.notifications.readAt }).from(schema.notifications).where(mine);
  if (!row) throw new NotFoundError(NOT_FOUND);
  if (!row.readAt) await ctx.db.update(schema.notifications).set({ readAt: now }).where(and(mine, isNull(schema.notifications.readAt)));
  return { message: "Notification marked as read." };
}

/**
 * Opening a notification (its link in the list, a push click, the e-mail's button): marks it read and
 * answers where it leads. Someone else's notification is as missing as one that never existed.
 */
export async function openNotification(ctx: ServiceContext, id: string, now = new Date()): Promise<{ path: string }> {
  const userId = requireUser(ctx).userId;
  const [row] = await ctx.db
    .select({ type: schema.notifications.type, data: schema.notifications.data })
    .from(schema.notifications)
    .where(and(eq(schema.notifications.id, id), eq(schema.notifications.userId, userId)));
  if (!row) throw new NotFoundError(NOT_FOUND);
  await markNotificationRead(ctx, id, now);
  return { path: notificationAction(row.type, row.data ?? {}).path };
}

/** POST /notifications/read-all: `count` is how many were unread. */
export async function markAllNotificationsRead(ctx: ServiceContext, now = new Date()): Promise<{ message: string; count: number }> {
  const userId = requireUser(ctx).userId;
  const updated = await ctx.db
    .update(schema.notifications)
    .set({ readAt: now })
    .where(and(eq(schema.notifications.userId, userId), isNull(schema.notifications.readAt)))
    .returning({ id: schema.notifications.id });
  return { message: updated.length === 1 ? "1 notification marked as read." : `${updated.length} notifications marked as read.`, count: updated.length };
}
