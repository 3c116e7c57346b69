import { and, eq, sql } from "drizzle-orm";
import { schema } from "@/db/client";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { applyPaymentEvent, isPaymentEventType, PermanentEventError } from "./events";

export type ProcessOutcome = "processed" | "ignored" | "skipped" | "failed";

export interface ProcessPaymentEventInput {
  eventId: string;
  /** The attempt (counted in payment_events.attempts) after which a failure is final: FAILED. */
  attemptLimit: number;
}

const MAX_ERROR_LENGTH = 2000;

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/**
 * Processes one stored event (the payments.process-event job). The attempt is counted first, in its own
 * statement, so an attempt the process dies in still counts. Then, in one transaction with the event's
 * row locked: an event no longer RECEIVED (processed by a concurrent run, ignored, failed) is skipped; a
 * type not in the table (events.ts) becomes IGNORED; otherwise its payload is read through its type's schema,
 * its handler runs, and the event becomes PROCESSED with everything the handler wrote, or nothing at all. A failure records lastError and is thrown again so
 * pg-boss retries with backoff; at the last attempt, or for a PermanentEventError (a payload that fails its
 * schema, among others) at once, the event is marked FAILED and stays listed for an admin to replay.
 */
export async function processPaymentEvent(ctx: ServiceContext, input: ProcessPaymentEventInput): Promise<ProcessOutcome> {
  const table = schema.paymentEvents;
  const [claimed] = await ctx.db
    .update(table)
    .set({ attempts: sql`${table.attempts} + 1` })
    .where(and(eq(table.id, input.eventId), eq(table.status, "RECEIVED")))
    .returning({ attempts: table.attempts });
  if (!claimed) return "skipped";

  try {
    return await withTransaction(ctx, async (tx) => {
      const [row] = await tx.db.select().from(table).where(eq(table.id, input.eventId)).for("update");
      if (!row || row.status !== "RECEIVED") return "skipped";
      const now = new Date();
      if (!isPaymentEventType(row.type)) {
        await tx.db.update(table).set({ status: "IGNORED", processedAt: now, lastError: null }).where(eq(table.id, row.id));
        return "ignored";
      }
      await applyPaymentEvent(tx, row.type, row.payload);
      await tx.db.update(table).set({ status: "PROCESSED", processedAt: now, lastError: null }).where(eq(table.id, row.id));
      return "processed";
    });
  } catch (error) {
    const permanent = error instanceof PermanentEventError;
    const final = permanent || claimed.attempts >= input.attemptLimit;
    await ctx.db
      .update(table)
      .set({ lastError: errorText(error), ...(final ? { status: "FAILED" as const } : {}) })
      .where(and(eq(table.id, input.eventId), eq(table.status, "RECEIVED")));
    if (permanent) return "failed";
    throw error;
  }
}
