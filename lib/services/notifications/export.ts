import { asc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";

/** The user's stored notifications, oldest first, for the data export. */
export async function exportNotifications(db: Executor, userId: string): Promise<unknown[]> {
  const rows = await db
    .select({ id: schema.notifications.id, type: schema.notifications.type, title: schema.notifications.title, body: schema.notifications.body, data: schema.notifications.data, readAt: schema.notifications.readAt, createdAt: schema.notifications.createdAt })
    .from(schema.notifications)
    .where(eq(schema.notifications.userId, userId))
    .orderBy(asc(schema.notifications.createdAt), asc(schema.notifications.id));
  return rows.map((row) => ({ ...row, read: row.readAt !== null, readAt: row.readAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() }));
}
