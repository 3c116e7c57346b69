import { and, desc, eq, isNull } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { NotFoundError, ValidationError } from "@/lib/services/errors";
import type { CreateReportInput, MyReport, ReportCreated } from "./schemas";

export const REPORT_RECEIVED = "Thank you. We review every report within 24 hours.";

/**
 * POST /reports. Every id the report names must exist (404 otherwise); a message must be one of the
 * reporter's own threads (the owner's inbox; anything else is 404, as it is not theirs to see). When
 * the message's thread has a signed-in finder and no target is named, the finder is the target; the
 * report keeps the thread, so it survives the message's deletion. A lost-pet alert or a found-animal report
 * must exist and not be removed (404); its owner, or the organisation's account, is the target unless one
 * is named. Reporting yourself is 400.
 */
export async function createReport(ctx: ServiceContext, input: CreateReportInput): Promise<ReportCreated> {
  const { userId } = requireUser(ctx);
  if (input.targetUserId === userId) throw ValidationError.field("targetUserId", "You cannot report yourself.");
  return withTransaction(ctx, async (tx) => {
    let targetUserId = input.targetUserId ?? null;
    let threadId: string | null = null;
    if (targetUserId) {
      const [target] = await tx.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, targetUserId));
      if (!target) throw new NotFoundError("The reported user was not found.");
    }
    if (input.tagId) {
      const [tag] = await tx.db.select({ id: schema.tags.id }).from(schema.tags).where(eq(schema.tags.id, input.tagId));
      if (!tag) throw new NotFoundError("The reported tag was not found.");
    }
    if (input.messageId) {
      const [message] = await tx.db
        .select({ threadId: schema.threads.id, ownerId: schema.threads.ownerId, finderUserId: schema.threads.finderUserId })
        .from(schema.threadMessages)
        .innerJoin(schema.threads, eq(schema.threads.id, schema.threadMessages.threadId))
        .where(eq(schema.threadMessages.id, input.messageId));
      if (!message || message.ownerId !== userId) throw new NotFoundError("The reported message was not found.");
      threadId = message.threadId;
      // A finder who is the reporter themselves (scanning their own tag) is no one to report.
      if (!targetUserId && message.finderUserId && message.finderUserId !== userId) targetUserId = message.finderUserId;
    }
    if (input.alertId) {
      // A removed alert is gone from every page: there is nothing left to report.
      const [alert] = await tx.db
        .select({ ownerId: schema.lostPetAlerts.ownerId })
        .from(schema.lostPetAlerts)
        .where(and(eq(schema.lostPetAlerts.id, input.alertId), isNull(schema.lostPetAlerts.removedAt)));
      if (!alert) throw new NotFoundError("The reported alert was not found.");
      if (!targetUserId && alert.ownerId !== userId) targetUserId = alert.ownerId;
    }
    if (input.foundReportId) {
      const [found] = await tx.db
        .select({ organisationUserId: schema.organisations.userId })
        .from(schema.foundReports)
        .innerJoin(schema.organisations, eq(schema.organisations.id, schema.foundReports.organisationId))
        .where(and(eq(schema.foundReports.id, input.foundReportId), isNull(schema.foundReports.removedAt)));
      if (!found) throw new NotFoundError("The reported found-animal report was not found.");
      if (!targetUserId && found.organisationUserId !== userId) targetUserId = found.organisationUserId;
    }
    const [report] = await tx.db
      .insert(schema.reports)
      .values({
        reporterId: userId,
        type: input.type,
        description: input.description,
        targetUserId,
        tagId: input.tagId ?? null,
        messageId: input.messageId ?? null,
        threadId,
        alertId: input.alertId ?? null,
        foundReportId: input.foundReportId ?? null,
      })
      .returning({ id: schema.reports.id, type: schema.reports.type });
    return { id: report!.id, type: input.type, status: "OPEN", message: REPORT_RECEIVED };
  });
}

/** GET /reports/my: every report the caller made, newest first. */
export async function listMyReports(ctx: ServiceContext): Promise<MyReport[]> {
  const { userId } = requireUser(ctx);
  const rows = await ctx.db
    .select({
      id: schema.reports.id,
      type: schema.reports.type,
      status: schema.reports.status,
      description: schema.reports.description,
      createdAt: schema.reports.createdAt,
      targetUserId: schema.reports.targetUserId,
      tagId: schema.reports.tagId,
      messageId: schema.reports.messageId,
      alertId: schema.reports.alertId,
      foundReportId: schema.reports.foundReportId,
    })
    .from(schema.reports)
    .where(eq(schema.reports.reporterId, userId))
    .orderBy(desc(schema.reports.createdAt), desc(schema.reports.id));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
