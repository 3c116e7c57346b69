import { asc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";

/** The user's rewards for the data export (the finder's handover code stays behind). */
export async function exportRewards(db: Executor, userId: string): Promise<unknown[]> {
  const rows = await db.select().from(schema.rewards).where(eq(schema.rewards.ownerId, userId)).orderBy(asc(schema.rewards.createdAt));
  return rows.map((row) => ({
    id: row.id,
    tagId: row.tagId,
    amount: row.amountMinor / 100,
    currency: row.currency,
    description: row.description,
    status: row.status,
    paymentRef: row.paymentRef,
    paidAt: row.paidAt?.toISOString() ?? null,
    disputeReason: row.disputeReason,
    returnedAt: row.returnedAt?.toISOString() ?? null,
    certificateId: row.certificateId,
    verifiedHandover: row.verifiedHandover,
    createdAt: row.createdAt.toISOString(),
  }));
}
