import { createElement } from "react";
import { eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { NotificationEmail } from "@/emails/notification";
import { deliverEmail } from "@/lib/email/deliver";
import { renderEmail } from "@/lib/email/render";

/**
 * Delivers one notification by e-mail (the `notifications.email` job). A notification deleted in
 * the meantime (account gone) is simply skipped. `idempotencyKey` lets the provider drop a retry's
 * duplicate.
 */
export async function sendNotificationEmail(db: Executor, notificationId: string, idempotencyKey?: string): Promise<"sent" | "skipped"> {
  const [row] = await db
    .select({ notification: schema.notifications, email: schema.users.email })
    .from(schema.notifications)
    .innerJoin(schema.users, eq(schema.users.id, schema.notifications.userId))
    .where(eq(schema.notifications.id, notificationId));
  if (!row) return "skipped";
  const { notification } = row;
  const rendered = await renderEmail(
    createElement(NotificationEmail, { type: notification.type, title: notification.title, body: notification.body, data: notification.data, notificationId: notification.id }),
    notification.title,
  );
  await deliverEmail({ to: row.email, ...rendered, template: `notification.${notification.type.toLowerCase()}`, idempotencyKey });
  return "sent";
}
