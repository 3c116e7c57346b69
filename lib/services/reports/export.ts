import { asc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";

/** The reports the user filed, for the data export (the moderators' notes and who acted stay behind). */
export async function exportReports(db: Executor, userId: string): Promise<unknown[]> {
  const rows = await db
    .select({
      id: schema.reports.id,
      type: schema.reports.type,
      status: schema.reports.status,
      description: schema.reports.description,
      targetUserId: schema.reports.targetUserId,
      tagId: schema.reports.tagId,
      messageId: schema.reports.messageId,
      threadId: schema.reports.threadId,
      alertId: schema.reports.alertId,
      foundReportId: schema.reports.foundReportId,
      createdAt: schema.reports.createdAt,
      resolvedAt: schema.reports.resolvedAt,
    })
    .from(schema.reports)
    .where(eq(schema.reports.reporterId, userId))
    .orderBy(asc(schema.reports.createdAt));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), resolvedAt: row.resolvedAt?.toISOString() ?? null }));
}

/** The users the user has blocked, for the data export. */
export async function exportBlockedUsers(db: Executor, userId: string): Promise<unknown[]> {
  const rows = await db.select({ userId: schema.userBlocks.blockedId, blockedAt: schema.userBlocks.createdAt }).from(schema.userBlocks).where(eq(schema.userBlocks.blockerId, userId)).orderBy(asc(schema.userBlocks.createdAt));
  return rows.map((row) => ({ ...row, blockedAt: row.blockedAt.toISOString() }));
}
