import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { schema } from "@/db/client";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { notifyMany } from "@/lib/services/notifications";
import { alertById, petDetailsOf, primaryPhotoUrl } from "./queries";
import { lostPetNearbyText } from "./wording";

/** Recipients notified per transaction: a batch's notifications, jobs and marks commit together. */
export const FAN_OUT_BATCH_SIZE = 500;

/**
 * The `alerts.fan-out` job's work: notifies the alert's recipients not notified yet, at most `batchSize`
 * per transaction (nearest first). Each batch stores the LOST_PET_NEARBY notifications, their live
 * signals and e-mail/push jobs (notifyMany) and marks its recipients with their notification in the same
 * transaction, so a retry or a second run notifies only those left, and two runs at once split the rows
 * (SKIP LOCKED) instead of doubling them. An alert closed or removed before its turn notifies no one more, nor
 * does a recipient suspended or blocked (either way) since the alert was raised.
 */
export async function notifyAlertRecipients(ctx: ServiceContext, alertId: string, options: { batchSize?: number; now?: () => Date } = {}): Promise<{ notified: number }> {
  const batchSize = options.batchSize ?? FAN_OUT_BATCH_SIZE;
  let notified = 0;
  for (;;) {
    const count = await withTransaction(ctx, async (tx) => {
      const alert = await alertById(tx.db, alertId);
      if (!alert || alert.closedAt || alert.removedAt) return 0;
      const recipients = schema.lostPetAlertRecipients;
      const batch = await tx.db
        .select({ userId: recipients.userId, distanceM: recipients.distanceM })
        .from(recipients)
        .where(
          and(
            eq(recipients.alertId, alert.id),
            isNull(recipients.notificationId),
            // Still as the fan-out chose them: suspended or blocked either way since, they are left out.
            sql`not exists (select 1 from ${schema.users} where ${schema.users.id} = ${recipients.userId} and ${schema.users.suspendedAt} is not null)`,
            sql`not exists (select 1 from ${schema.userBlocks} where (${schema.userBlocks.blockerId} = ${alert.ownerId}::uuid and ${schema.userBlocks.blockedId} = ${recipients.userId}) or (${schema.userBlocks.blockerId} = ${recipients.userId} and ${schema.userBlocks.blockedId} = ${alert.ownerId}::uuid))`,
          ),
        )
        .orderBy(asc(recipients.distanceM), asc(recipients.userId))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      if (batch.length === 0) return 0;

      const [tag] = await tx.db.select({ id: schema.tags.id, itemName: schema.tags.itemName }).from(schema.tags).where(eq(schema.tags.id, alert.tagId));
      if (!tag) return 0;
      const [pet, photoUrl] = await Promise.all([petDetailsOf(tx.db, tag), primaryPhotoUrl(tx.db, tag.id)]);
      const now = options.now?.() ?? new Date();
      const items = batch.map((recipient) => {
        const notice = { petName: pet.petName, species: alert.species, breed: pet.breed, color: pet.color, distanceM: recipient.distanceM, lastSeenAt: alert.lastSeenAt };
        return {
          userId: recipient.userId,
          ...lostPetNearbyText(notice, now),
          // Never the tag's id nor the precise place: the alert's page is the way in.
          data: { alertId: alert.id, petName: pet.petName, species: alert.species, breed: pet.breed, color: pet.color, photoUrl, distanceM: recipient.distanceM, lastSeenAt: alert.lastSeenAt.toISOString() },
        };
      });
      const notifications = await notifyMany(tx, "LOST_PET_NEARBY", items, now);
      const marks = JSON.stringify(notifications.map((notification) => ({ u: notification.userId, n: notification.id })));
      await tx.db.execute(sql`
        update ${recipients} set notification_id = (mark->>'n')::uuid, notified_at = now()
        from json_array_elements(${marks}::json) as mark
        where ${recipients.alertId} = ${alert.id}::uuid and ${recipients.userId} = (mark->>'u')::uuid`);
      return batch.length;
    });
    notified += count;
    if (count < batchSize) return { notified };
  }
}
