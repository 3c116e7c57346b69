import { schema } from "@/db/client";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { signalNotification } from "@/lib/realtime/channel";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { preferencesOf } from "./queries";
import { channelEnabled, deliverAfter, isUrgent, type NotificationType } from "./rules";

export interface NotifyInput {
  userId: string;
  type: NotificationType;
  title: string;
  body: string;
  data?: Record<string, unknown>;
  /** False when the caller already sends its own e-mail for this event (e.g. a transfer offer). */
  email?: boolean;
  /** False for a quiet notification: listed and streamed live, but not pushed to the user's devices. */
  push?: boolean;
}

/**
 * The one way to tell a user something. Stores the notification and, in the same transaction,
 * enqueues its e-mail and push deliveries per the user's preferences (held until the end of quiet
 * hours unless urgent) and signals the live streams with pg_notify, which PostgreSQL delivers only
 * when the transaction commits.
 */
export async function notify(ctx: ServiceContext, input: NotifyInput, now = new Date()) {
  return withTransaction(ctx, async (tx) => {
    const data = input.data ?? {};
    const [notification] = await tx.db.insert(schema.notifications).values({ userId: input.userId, type: input.type, title: input.title, body: input.body, data }).returning();
    const preferences = await preferencesOf(tx.db, input.userId);
    const startAfter = deliverAfter(preferences, now, isUrgent(input.type, data)) ?? undefined;
    if (input.email !== false && channelEnabled(preferences, input.type, "email")) {
      await enqueueJob(tx, "notifications.email", { notificationId: notification!.id }, { startAfter });
    }
    if (input.push !== false && channelEnabled(preferences, input.type, "push")) {
      await enqueueJob(tx, "notifications.push", { notificationId: notification!.id }, { startAfter });
    }
    await signalNotification(tx.db, notification!);
    return notification!;
  });
}
