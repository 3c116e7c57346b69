import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { schema, type Transaction } from "@/db/client";
import type { ServiceContext } from "@/lib/services/context";
import { notify } from "@/lib/services/notifications";

/**
 * The relay's global daily spend cap (docs/relay.md): relayed texts and calls counted per UTC day in
 * relay_daily_usage; past the cap the relay refuses politely, and the admins are told once that day.
 */
export const RELAY_DAILY_CAP = 2000;

const today = (now: Date) => now.toISOString().slice(0, 10);

/** Counts one relayed text or call; false (and the admins alerted, once a day) when the day's cap is spent. */
export async function spendRelayUnit(tx: ServiceContext & { db: Transaction }, now: Date, cap = RELAY_DAILY_CAP): Promise<boolean> {
  const day = today(now);
  const [row] = await tx.db
    .insert(schema.relayDailyUsage)
    .values({ day, count: 1 })
    .onConflictDoUpdate({ target: schema.relayDailyUsage.day, set: { count: sql`${schema.relayDailyUsage.count} + 1` } })
    .returning();
  if ((row?.count ?? 0) <= cap) return true;
  const [first] = await tx.db
    .update(schema.relayDailyUsage)
    .set({ alertedAt: now })
    .where(and(eq(schema.relayDailyUsage.day, day), isNull(schema.relayDailyUsage.alertedAt)))
    .returning();
  if (first) {
    const admins = await tx.db.select({ id: schema.users.id }).from(schema.users).where(inArray(schema.users.role, ["ADMIN", "SUPER_ADMIN"]));
    for (const admin of admins) {
      await notify(tx, {
        userId: admin.id,
        type: "SECURITY",
        title: "The phone relay reached its daily cap",
        body: `More than ${cap} relayed texts and calls today (UTC ${day}): the relay refuses more until midnight UTC. Look for abuse, or raise the cap.`,
        data: { relayDay: day, cap },
      });
    }
  }
  return false;
}

/**
 * Gives back one unit counted on `now`'s day for a text that was never sent (its send failed and its job
 * will retry): without it every retry of the same text would be charged again.
 */
export async function refundRelayUnit(tx: ServiceContext & { db: Transaction }, now: Date): Promise<void> {
  await tx.db
    .update(schema.relayDailyUsage)
    .set({ count: sql`greatest(${schema.relayDailyUsage.count} - 1, 0)` })
    .where(eq(schema.relayDailyUsage.day, today(now)));
}
