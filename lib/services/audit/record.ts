import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireAdmin, type ServiceContext } from "@/lib/services/context";

/** Keys never written to the audit log, wherever they appear in a before/after snapshot. */
const SECRET_KEYS = new Set(["passwordHash", "codeHash", "tokenHash", "confirmTokenHash", "keyHash", "secret", "totpSecret", "tokenSealed"]);

export interface AuditInput {
  /** `<entity>.<verb>`: `user.update`, `blog_post.create`, `order.refund`, `campaign.create` … */
  action: string;
  entityType: string;
  entityId?: string | null;
  /** The record before the write (null for a create). */
  before?: unknown;
  /** The record after the write (null for a delete). */
  after?: unknown;
}

/** A JSON-safe copy without secrets: Dates become ISO strings, secret keys are dropped. */
export function auditSnapshot(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(auditSnapshot);
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (SECRET_KEYS.has(key) || field === undefined) continue;
      out[key] = auditSnapshot(field);
    }
    return out;
  }
  return value;
}

/**
 * Records an admin write. Call it inside the write's transaction (pass the transaction's context), so the
 * entry exists exactly when the change committed. The acting admin comes from `ctx`.
 */
export async function recordAudit(ctx: ServiceContext, input: AuditInput): Promise<void> {
  const actor = requireAdmin(ctx);
  const [admin] = await ctx.db
    .select({ email: schema.users.email })
    .from(schema.users)
    .where(eq(schema.users.id, actor.userId));
  await ctx.db.insert(schema.auditLog).values({
    actorId: actor.userId,
    actorEmail: admin?.email ?? null,
    action: input.action,
    entityType: input.entityType,
    entityId: input.entityId ?? null,
    before: auditSnapshot(input.before),
    after: auditSnapshot(input.after),
  });
}

/**
 * Records a change the system made on its own (a payment event, a background job): no acting admin, so the
 * entry names what acted in `actorEmail` (shown as "By" in the log). Call it inside the change's transaction.
 */
export async function recordSystemAudit(ctx: ServiceContext, input: AuditInput & { actor: string }): Promise<void> {
  await ctx.db.insert(schema.auditLog).values({
    actorId: null,
    actorEmail: input.actor,
    action: input.action,
    entityType: input.entityType,
    entityId: input.entityId ?? null,
    before: auditSnapshot(input.before),
    after: auditSnapshot(input.after),
  });
}
