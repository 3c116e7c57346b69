import { and, eq, sql, type SQL } from "drizzle-orm";
import { schema } from "@/db/client";
import type { AuditEntry as AuditRow } from "@/db/schema";
import { requireSuperAdmin, type ServiceContext } from "@/lib/services/context";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";
import type { AuditEntry, AuditLogFilters } from "./schemas";

export interface AuditLogQuery extends AuditLogFilters, PageRequest {}

const auditOrder: ListOrder<AuditRow> = {
  name: "audit-log",
  keys: [
    { column: schema.auditLog.createdAt, direction: "desc", type: "timestamp" },
    { column: schema.auditLog.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.createdAt, row.id],
};

function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    action: row.action,
    entityType: row.entityType,
    entityId: row.entityId,
    before: row.before ?? null,
    after: row.after ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** GET /admin/audit-log (SUPER_ADMIN only, 403 for an ADMIN): newest first, filtered by exact action, entity type or actor. */
export async function listAuditLog(ctx: ServiceContext, query: AuditLogQuery): Promise<Page<AuditEntry>> {
  requireSuperAdmin(ctx);
  const { auditLog } = schema;
  const filters: SQL[] = [];
  if (query.action) filters.push(eq(auditLog.action, query.action));
  if (query.entityType) filters.push(eq(auditLog.entityType, query.entityType));
  if (query.actorId) filters.push(eq(auditLog.actorId, query.actorId));
  const where = filters.length ? and(...filters) : undefined;
  const plan = keysetPage(auditOrder, [query.action ?? null, query.entityType ?? null, query.actorId ?? null], query);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(auditLog)
      .where(and(where, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(auditLog).where(where)),
  ]);
  return plan.finish(rows, toAuditEntry, total);
}
