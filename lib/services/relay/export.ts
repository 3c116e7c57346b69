import { eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";

/** The data export's relay number: as every answer shows it, its last 2 digits (never the number or its hash). */
export async function exportRelayPhone(db: Executor, userId: string): Promise<{ lastDigits: string; verifiedAt: string }[]> {
  const rows = await db.select().from(schema.ownerPhones).where(eq(schema.ownerPhones.userId, userId));
  return rows.map((row) => ({ lastDigits: row.lastDigits, verifiedAt: row.verifiedAt.toISOString() }));
}

/** The data export's relay settings: the tags' rows this account set. */
export async function exportTagRelays(db: Executor, userId: string) {
  const rows = await db.select().from(schema.tagRelays).where(eq(schema.tagRelays.ownerId, userId));
  return rows.map((row) => ({
    tagId: row.tagId,
    enabled: row.enabled,
    pin: row.enabled ? row.pin : null,
    quietHours: row.quietFrom && row.quietTo ? { from: row.quietFrom, to: row.quietTo } : null,
    updatedAt: row.updatedAt.toISOString(),
  }));
}
