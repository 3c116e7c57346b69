import { and, count, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { schema } from "@/db/client";
import { notificationType, type Notification } from "@/db/schema";
import type { ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { notificationAction } from "./actions";
import { requireUser } from "@/lib/services/context";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";

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

const notificationOrder: ListOrder<Notification> = {
  name: "notifications",
  keys: [
    { column: schema.notifications.createdAt, direction: "desc", type: "timestamp" },
    { column: schema.notifications.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.createdAt, row.id],
};

/** GET /notifications: the caller's notifications, newest first, by page or by cursor (index notifications_user_created_id_idx). */
export async function listNotifications(ctx: ServiceContext, input: PageRequest): Promise<Page<NotificationItem>> {
  const userId = requireUser(ctx).userId;
  const mine = eq(schema.notifications.userId, userId);
  const plan = keysetPage(notificationOrder, [userId], input);
  const rows = await ctx.db
    .select()
    .from(schema.notifications)
    .where(and(mine, plan.where))
    .orderBy(...plan.orderBy)
    .limit(plan.limit)
    .offset(plan.offset);
  const total = await boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.notifications).where(mine));
  return plan.finish(rows, toNotificationItem, total);
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
