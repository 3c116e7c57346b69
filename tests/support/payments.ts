import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDatabase } from "@/db/client";
import { signPaymentPayload } from "@/lib/payments/signature";

/** The secrets the payment webhook tests run with (stubbed into the environment before the routes load). */
export const TEST_WEBHOOK_SECRET = "whsec_test_current_0123456789";
export const TEST_WEBHOOK_SECRET_PREVIOUS = "whsec_test_previous_0123456789";

export function eventId(label = "evt"): string {
  return `${label}_${randomBytes(8).toString("hex")}`;
}

export interface SubscriptionEventOptions {
  id?: string;
  subscriptionId: string;
  customer?: string | null;
  userId?: string;
  status?: string;
  tier?: string | null;
  created: number;
  cancelAtPeriodEnd?: boolean;
  periodEnd?: number;
}

/** A customer.subscription.* event as Stripe sends it (API 2025: current_period_end on the items). */
export function subscriptionEvent(kind: "created" | "updated" | "deleted", options: SubscriptionEventOptions) {
  const periodEnd = options.periodEnd ?? options.created + 30 * 86400;
  return {
    id: options.id ?? eventId(),
    object: "event",
    type: `customer.subscription.${kind}`,
    created: options.created,
    livemode: false,
    data: {
      object: {
        id: options.subscriptionId,
        object: "subscription",
        customer: options.customer ?? null,
        status: options.status ?? (kind === "deleted" ? "canceled" : "active"),
        cancel_at_period_end: options.cancelAtPeriodEnd ?? false,
        metadata: options.userId ? { userId: options.userId } : {},
        items: {
          object: "list",
          data: [
            {
              id: `si_${options.subscriptionId}`,
              current_period_end: periodEnd,
              price: { id: "price_pro_monthly", object: "price", metadata: options.tier === null ? {} : { tier: options.tier ?? "PRO" } },
            },
          ],
        },
      },
    },
  };
}

export function signedHeaders(body: string, secret = TEST_WEBHOOK_SECRET, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  return { "content-type": "application/json", "payment-signature": signPaymentPayload(body, secret, timestamp) };
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
}

/** pg-boss jobs (live and archived) that process this event. */
export async function processingJobsFor(id: string): Promise<{ id: string; state: string }[]> {
  const result: unknown = await getDatabase().db.execute(
    sql`select id::text, state::text from pgboss.job where name = 'payments.process-event' and data->>'eventId' = ${id}
        union all select id::text, state::text from pgboss.archive where name = 'payments.process-event' and data->>'eventId' = ${id}`,
  );
  return rowsOf(result).map((row) => ({ id: String(row.id), state: String(row.state) }));
}
