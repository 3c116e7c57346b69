import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { schema } from "@/db/client";
import type { AuditEntry as AuditRow } from "@/db/schema";
import { requireSuperAdmin, type ServiceContext } from "@/lib/services/context";
import type { AuditEntry, AuditLogFilters } from "./schemas";

export interface AuditLogQuery extends AuditLogFilters {
  page: number;
  limit: number;
}

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
export async function listAuditLog(ctx: ServiceContext, query: AuditLogQuery): Promise<{ items: AuditEntry[]; total: number }> {
  requireSuperAdmin(ctx);
  const { auditLog } = schema;
  const filters: SQL[] = [];
  if (query.action) filters.push(eq(auditLog.action, query.action));
  if (query.entityType) filters.push(eq(auditLog.entityType, query.entityType));
  if (query.actorId) filters.push(eq(auditLog.actorId, query.actorId));
  const where = filters.length ? and(...filters) : undefined;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    ctx.db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { items: rows.map(toAuditEntry), total: Number(total?.n ?? 0) };
}
