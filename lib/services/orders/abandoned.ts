import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { schema } from "@/db/client";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { tellBuyer } from "./orders";
import { orderItemsOf, releaseReservation } from "./queries";
import { orderReference } from "./records";
import { ABANDONED_ORDER_HOURS } from "./schemas";

const BATCH = 100;

/**
 * The orders.expire-abandoned sweep: every order still PENDING `ABANDONED_ORDER_HOURS` after it was placed
 * whose payment is PENDING or FAILED (never PROCESSING or COMPLETED: money is on its way or arrived) is
 * CANCELLED and its reserved units released, and the buyer is told (ORDER_UPDATED). A checkout the buyer
 * still completes afterwards is refunded by the payment effects ("payment for a cancelled order").
 *
 * Each batch locks its orders with SKIP LOCKED, so an order a webhook event is confirming at this moment is
 * left alone (the next sweep sees it CONFIRMED). Idempotent: a cancelled order no longer matches.
 */
export async function cancelAbandonedOrders(ctx: ServiceContext, options: { now?: Date } = {}): Promise<number> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - ABANDONED_ORDER_HOURS * 60 * 60 * 1000);
  let cancelled = 0;
  for (;;) {
    const done = await withTransaction(ctx, async (tx) => {
      const orders = await tx.db
        .select()
        .from(schema.orders)
        .where(and(eq(schema.orders.status, "PENDING"), inArray(schema.orders.paymentStatus, ["PENDING", "FAILED"]), lte(schema.orders.createdAt, cutoff)))
        .orderBy(asc(schema.orders.createdAt))
        .limit(BATCH)
        .for("update", { skipLocked: true });
      const items = await orderItemsOf(tx.db, orders.map((order) => order.id));
      for (const order of orders) {
        await releaseReservation(tx.db, order, items.get(order.id) ?? [], now);
        await tx.db.update(schema.orders).set({ status: "CANCELLED", cancelledAt: now }).where(eq(schema.orders.id, order.id));
        await tellBuyer(
          tx,
          order,
          "CANCELLED",
          `Order ${orderReference(order.id)} cancelled`,
          `Your order was not paid within ${ABANDONED_ORDER_HOURS} hours, so we cancelled it and released the items. Nothing was charged.`,
        );
      }
      return orders.length;
    });
    cancelled += done;
    if (done < BATCH) return cancelled;
  }
}
