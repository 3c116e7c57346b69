import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { schema, type Executor } from "@/db/client";
import { requireAdmin, type ServiceContext, withTransaction } from "@/lib/services/context";
import { ConflictError, NotFoundError, UnprocessableError } from "@/lib/services/errors";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";
import { recordAudit } from "@/lib/services/audit";
import { notify } from "@/lib/services/notifications";
import { changeTagStatus } from "@/lib/services/tags";
import { suspendUser } from "@/lib/services/users";
import type { AdminReport, QueueReportType, ReportActionInput, ReportStatus, UpdateReportInput } from "./schemas";

const REPORT_NOT_FOUND = "Report not found.";

/** What an audit entry of a report keeps: its moderation state, not the reporter's text. */
function reportAuditFields(report: typeof schema.reports.$inferSelect) {
  return { status: report.status, action: report.action, adminNote: report.adminNote, resolvedById: report.resolvedById, resolvedAt: report.resolvedAt };
}

const reporter = alias(schema.users, "reporter");
const target = alias(schema.users, "target");
const related = alias(schema.users, "related");
const relatedTag = alias(schema.tags, "related_tag");
const alertTag = alias(schema.tags, "alert_tag");

function adminReportQuery(db: Executor) {
  return db
    .select({
      report: schema.reports,
      reporterEmail: reporter.email,
      targetEmail: target.email,
      targetRole: target.role,
      targetSuspendedAt: target.suspendedAt,
      relatedEmail: related.email,
      relatedTagStatus: relatedTag.status,
      tagStatus: schema.tags.status,
      messageContent: schema.threadMessages.content,
      messageSender: schema.threadMessages.sender,
      alertSpecies: schema.lostPetAlerts.species,
      alertNote: schema.lostPetAlerts.note,
      alertRemovedAt: schema.lostPetAlerts.removedAt,
      alertPetName: schema.petProfiles.petName,
      alertItemName: alertTag.itemName,
      foundSpecies: schema.foundReports.species,
      foundNote: schema.foundReports.note,
      foundRemovedAt: schema.foundReports.removedAt,
      foundOrganisationName: schema.organisations.name,
    })
    .from(schema.reports)
    .leftJoin(reporter, eq(reporter.id, schema.reports.reporterId))
    .leftJoin(target, eq(target.id, schema.reports.targetUserId))
    .leftJoin(related, eq(related.id, schema.reports.relatedUserId))
    .leftJoin(relatedTag, eq(relatedTag.id, schema.reports.relatedTagId))
    .leftJoin(schema.tags, eq(schema.tags.id, schema.reports.tagId))
    .leftJoin(schema.threadMessages, eq(schema.threadMessages.id, schema.reports.messageId))
    .leftJoin(schema.lostPetAlerts, eq(schema.lostPetAlerts.id, schema.reports.alertId))
    .leftJoin(alertTag, eq(alertTag.id, schema.lostPetAlerts.tagId))
    .leftJoin(schema.petProfiles, eq(schema.petProfiles.tagId, schema.lostPetAlerts.tagId))
    .leftJoin(schema.foundReports, eq(schema.foundReports.id, schema.reports.foundReportId))
    .leftJoin(schema.organisations, eq(schema.organisations.id, schema.foundReports.organisationId));
}

type AdminReportRow = Awaited<ReturnType<ReturnType<typeof adminReportQuery>["where"]>>[number];

function toAdminReport(row: AdminReportRow): AdminReport {
  const { report } = row;
  return {
    id: report.id,
    type: report.type,
    status: report.status,
    description: report.description,
    reporterId: report.reporterId,
    reporterEmail: row.reporterEmail ?? null,
    targetUserId: report.targetUserId,
    targetEmail: row.targetEmail ?? null,
    targetRole: row.targetRole ?? null,
    targetSuspended: Boolean(row.targetSuspendedAt),
    tagId: report.tagId,
    tagStatus: row.tagStatus ?? null,
    messageId: report.messageId,
    messageContent: row.messageContent ?? null,
    messageSender: row.messageSender ?? null,
    threadId: report.threadId,
    vin: report.vin,
    relatedTagId: report.relatedTagId,
    relatedTagStatus: row.relatedTagStatus ?? null,
    relatedUserId: report.relatedUserId,
    relatedUserEmail: row.relatedEmail ?? null,
    alert:
      report.alertId && row.alertSpecies
        ? { id: report.alertId, petName: row.alertPetName ?? row.alertItemName ?? "A pet", species: row.alertSpecies, note: row.alertNote ?? null, removed: row.alertRemovedAt !== null }
        : null,
    foundReport:
      report.foundReportId && row.foundSpecies
        ? { id: report.foundReportId, organisationName: row.foundOrganisationName ?? "An organisation", species: row.foundSpecies, note: row.foundNote ?? "", removed: row.foundRemovedAt !== null }
        : null,
    adminNote: report.adminNote,
    action: report.action,
    resolvedById: report.resolvedById,
    resolvedAt: report.resolvedAt?.toISOString() ?? null,
    createdAt: report.createdAt.toISOString(),
    updatedAt: report.updatedAt.toISOString(),
  };
}

async function adminReport(db: Executor, reportId: string): Promise<AdminReport> {
  const [row] = await adminReportQuery(db).where(eq(schema.reports.id, reportId));
  if (!row) throw new NotFoundError(REPORT_NOT_FOUND);
  return toAdminReport(row);
}

export interface AdminReportQuery extends PageRequest {
  status?: ReportStatus;
  type?: QueueReportType;
}

const reportOrderOf = (direction: "asc" | "desc", name: string): ListOrder<AdminReportRow> => ({
  name,
  keys: [
    { column: schema.reports.createdAt, direction, type: "timestamp" },
    { column: schema.reports.id, direction, type: "uuid" },
  ],
  valuesOf: (row) => [row.report.createdAt, row.report.id],
});
const reportOrder = reportOrderOf("desc", "admin-reports");
const reportQueueOrder = reportOrderOf("asc", "admin-reports-queue");

/**
 * GET /admin/reports: the moderation queue. Filtered to OPEN or REVIEWING it is oldest first (the 24-hour
 * promise makes the oldest the most urgent); otherwise newest first.
 */
export async function listReportsForAdmin(ctx: ServiceContext, query: AdminReportQuery): Promise<Page<AdminReport>> {
  requireAdmin(ctx);
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(schema.reports.status, query.status));
  if (query.type) filters.push(eq(schema.reports.type, query.type));
  const where = filters.length ? and(...filters) : undefined;
  const queue = query.status === "OPEN" || query.status === "REVIEWING";
  const plan = keysetPage(queue ? reportQueueOrder : reportOrder, [query.status ?? null, query.type ?? null], query);
  const [rows, total] = await Promise.all([
    adminReportQuery(ctx.db)
      .where(and(where, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.reports).where(where)),
  ]);
  return plan.finish(rows, toAdminReport, total);
}

/**
 * PATCH /admin/reports/:id: moves the report to any status and sets the note (absent: kept; null:
 * cleared). RESOLVED or DISMISSED records who closed it and when; back to OPEN or REVIEWING reopens it
 * (the record of an action already taken stays).
 */
export async function updateReport(ctx: ServiceContext, reportId: string, input: UpdateReportInput): Promise<AdminReport> {
  const admin = requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const [report] = await tx.db.select().from(schema.reports).where(eq(schema.reports.id, reportId)).for("update");
    if (!report) throw new NotFoundError(REPORT_NOT_FOUND);
    const closing = input.status === "RESOLVED" || input.status === "DISMISSED";
    const wasClosed = report.status === "RESOLVED" || report.status === "DISMISSED";
    const updates: Partial<typeof schema.reports.$inferInsert> = { status: input.status };
    if (input.adminNote !== undefined) updates.adminNote = input.adminNote;
    if (closing && !wasClosed) Object.assign(updates, { resolvedById: admin.userId, resolvedAt: new Date() });
    if (!closing) Object.assign(updates, { resolvedById: null, resolvedAt: null });
    const [updated] = await tx.db.update(schema.reports).set(updates).where(eq(schema.reports.id, report.id)).returning();
    await recordAudit(tx, { action: "report.update", entityType: "report", entityId: report.id, before: reportAuditFields(report), after: reportAuditFields(updated!) });
    return adminReport(tx.db, report.id);
  });
}

function needs(value: string | null, what: string): string {
  if (!value) throw new UnprocessableError(`This report names no ${what}, so the action cannot apply to it.`);
  return value;
}

const typeWords: Record<QueueReportType, string> = {
  SPAM: "spam",
  HARASSMENT: "harassment",
  INAPPROPRIATE: "inappropriate content",
  SCAM: "a scam",
  OTHER: "a problem",
  VIN_CONFLICT: "a VIN claimed by two vehicle tags",
};

/**
 * POST /admin/reports/:id/action: applies the action and closes the report (DISMISS: DISMISSED; the
 * others: RESOLVED), recording the action, the admin, the time and the note. A report already closed is
 * 409; an action whose subject the report does not name (or that is gone since) is 422.
 * - WARN_USER tells the target user (SECURITY notification, by e-mail too) with the note.
 * - SUSPEND_USER suspends the target and revokes every session and API key at once (their live streams
 *   close); an ADMIN may suspend users only, a SUPER_ADMIN admins too, and no one a SUPER_ADMIN (403).
 * - DEACTIVATE_TAG deactivates the tag whatever its status, as moderation its owner cannot undo.
 * - DELETE_MESSAGE deletes the message (the report keeps its thread).
 */
export async function applyReportAction(ctx: ServiceContext, reportId: string, input: ReportActionInput): Promise<AdminReport> {
  const admin = requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const [report] = await tx.db.select().from(schema.reports).where(eq(schema.reports.id, reportId)).for("update");
    if (!report) throw new NotFoundError(REPORT_NOT_FOUND);
    if (report.status === "RESOLVED" || report.status === "DISMISSED") {
      throw new ConflictError(`This report is already ${report.status === "RESOLVED" ? "resolved" : "dismissed"}.`, { status: report.status });
    }
    const now = new Date();
    const note = input.note ?? null;

    switch (input.action) {
      case "WARN_USER": {
        const targetId = needs(report.targetUserId, "user");
        await notify(tx, {
          userId: targetId,
          type: "SECURITY",
          title: "A warning about your use of the Tag Service",
          body: `Our moderators reviewed a report of ${typeWords[report.type]} about your account.${note ? ` ${note}` : ""} Please keep to the rules when you contact people through their tags: repeated problems lead to suspension.`,
          data: { reportId: report.id, action: "WARN_USER" },
        });
        break;
      }
      case "SUSPEND_USER": {
        const targetId = needs(report.targetUserId, "user");
        const [user] = await tx.db.select().from(schema.users).where(eq(schema.users.id, targetId)).for("no key update");
        if (!user) throw new UnprocessableError("The reported user no longer exists.");
        await suspendUser(tx, admin, user, { now, report: { id: report.id, words: typeWords[report.type] }, note });
        break;
      }
      case "DEACTIVATE_TAG": {
        const tagId = needs(report.tagId, "tag");
        const [tag] = await tx.db.select().from(schema.tags).where(eq(schema.tags.id, tagId)).for("update");
        if (!tag) throw new UnprocessableError("The reported tag no longer exists.");
        await changeTagStatus(tx.db, tag, { to: "DEACTIVATED", actor: { kind: "admin", userId: admin.userId }, moderation: true, reason: `report ${report.id}`, now });
        if (tag.ownerId) {
          await notify(tx, {
            userId: tag.ownerId,
            type: "TAG_STATUS_CHANGED",
            title: "One of your tags was deactivated",
            body: `Our moderators deactivated your tag “${tag.itemName ?? "Unnamed tag"}” after a report of ${typeWords[report.type]}. Its page no longer shows your details.${note ? ` ${note}` : ""} Contact support to have the decision reviewed.`,
            data: { tagId: tag.id, tagStatus: "DEACTIVATED", reportId: report.id },
          });
        }
        break;
      }
      case "DELETE_MESSAGE": {
        const messageId = needs(report.messageId, "message");
        await tx.db.delete(schema.threadMessages).where(eq(schema.threadMessages.id, messageId));
        break;
      }
      case "REMOVE_ALERT": {
        // The alert leaves every public page and list; its conversations stay with their owner.
        const alertId = needs(report.alertId, "lost-pet alert");
        await tx.db.update(schema.lostPetAlerts).set({ removedAt: now, removedById: admin.userId }).where(and(eq(schema.lostPetAlerts.id, alertId), isNull(schema.lostPetAlerts.removedAt)));
        break;
      }
      case "REMOVE_FOUND_REPORT": {
        const foundReportId = needs(report.foundReportId, "found-animal report");
        await tx.db.update(schema.foundReports).set({ removedAt: now, removedById: admin.userId }).where(and(eq(schema.foundReports.id, foundReportId), isNull(schema.foundReports.removedAt)));
        break;
      }
      case "DISMISS":
        break;
    }

    const [updated] = await tx.db
      .update(schema.reports)
      .set({
        status: input.action === "DISMISS" ? "DISMISSED" : "RESOLVED",
        action: input.action,
        resolvedById: admin.userId,
        resolvedAt: now,
        adminNote: note ?? report.adminNote,
      })
      .where(eq(schema.reports.id, report.id))
      .returning();
    await recordAudit(tx, { action: "report.action", entityType: "report", entityId: report.id, before: reportAuditFields(report), after: reportAuditFields(updated!) });
    return adminReport(tx.db, report.id);
  });
}
