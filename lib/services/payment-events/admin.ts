import { count, desc, eq } from "drizzle-orm";
import { schema } from "@/db/client";
import type { PaymentEvent } from "@/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { recordAudit } from "@/lib/services/audit";
import { requireAdmin, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ConflictError, NotFoundError } from "@/lib/services/errors";
import type { PaymentEventRecord, PaymentEventStatus } from "./schemas";


export function toPaymentEventRecord(row: PaymentEvent): PaymentEventRecord {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    providerCreatedAt: row.providerCreatedAt?.toISOString() ?? null,
    receivedAt: row.receivedAt.toISOString(),
    processedAt: row.processedAt?.toISOString() ?? null,
    payload: row.payload,
  };
}

export interface PaymentEventQuery {
  page: number;
  limit: number;
  status?: PaymentEventStatus;
}

/** GET /admin/payment-events: the webhook inbox, newest first, optionally one status (FAILED: what needs a look). */
export async function listPaymentEvents(ctx: ServiceContext, query: PaymentEventQuery): Promise<{ items: PaymentEventRecord[]; total: number }> {
  requireAdmin(ctx);
  const table = schema.paymentEvents;
  const where = query.status ? eq(table.status, query.status) : undefined;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(table)
      .where(where)
      .orderBy(desc(table.receivedAt), desc(table.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    ctx.db.select({ n: count() }).from(table).where(where),
  ]);
  return { items: rows.map(toPaymentEventRecord), total: total?.n ?? 0 };
}

/**
 * POST /admin/payment-events/:id/replay: a FAILED event (or an IGNORED one, whose type may have a handler
 * by now) goes back to RECEIVED with a new processing job and a fresh set of retries. A PROCESSED event is
 * 409: applying it again is what the inbox exists to prevent. A RECEIVED one gets another job too: its own
 * may be gone (a process killed during the last retry), and a second job is harmless, since processing
 * locks the event and skips it once it is no longer RECEIVED.
 */
export async function replayPaymentEvent(ctx: ServiceContext, eventId: string): Promise<PaymentEventRecord> {
  requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const table = schema.paymentEvents;
    const [row] = await tx.db.select().from(table).where(eq(table.id, eventId)).for("update");
    if (!row) throw new NotFoundError("Payment event not found.");
    if (row.status === "PROCESSED") throw new ConflictError("This event was processed; it is not applied twice.", { status: row.status });
    const [updated] = await tx.db.update(table).set({ status: "RECEIVED", processedAt: null }).where(eq(table.id, eventId)).returning();
    await enqueueJob(tx, "payments.process-event", { eventId, firstAttempt: row.attempts });
    await recordAudit(tx, {
      action: "payment_event.replay",
      entityType: "payment_event",
      entityId: eventId,
      before: { status: row.status, attempts: row.attempts, processedAt: row.processedAt },
      after: { status: updated!.status, attempts: updated!.attempts, processedAt: updated!.processedAt },
    });
    return toPaymentEventRecord(updated!);
  });
}
