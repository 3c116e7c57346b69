import { and, eq, sql } from "drizzle-orm";
import { schema } from "@/db/client";
import type { PaymentEvent } from "@/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { recordAudit } from "@/lib/services/audit";
import { requireAdmin, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ConflictError, NotFoundError } from "@/lib/services/errors";
import type { PaymentEventRecord, PaymentEventStatus } from "./schemas";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";


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

export interface PaymentEventQuery extends PageRequest {
  status?: PaymentEventStatus;
}

const paymentEventsOrder: ListOrder<PaymentEvent> = {
  name: "payment-events",
  keys: [
    { column: schema.paymentEvents.receivedAt, direction: "desc", type: "timestamp" },
    { column: schema.paymentEvents.id, direction: "desc", type: "text" },
  ],
  valuesOf: (row) => [row.receivedAt, row.id],
};

/** GET /admin/payment-events: the webhook inbox, newest first, optionally one status (FAILED: what needs a look). */
export async function listPaymentEvents(ctx: ServiceContext, query: PaymentEventQuery): Promise<Page<PaymentEventRecord>> {
  requireAdmin(ctx);
  const table = schema.paymentEvents;
  const where = query.status ? eq(table.status, query.status) : undefined;
  const plan = keysetPage(paymentEventsOrder, [query.status ?? null], query);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(table)
      .where(and(where, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(table).where(where)),
  ]);
  return plan.finish(rows, toPaymentEventRecord, total);
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
