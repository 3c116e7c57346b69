import { completeOrderRefund } from "@/lib/services/orders";
import { defineCatalogJob } from "../catalog";

/**
 * Refunds a cancelled order's payment at the provider (a cancellation of a paid order, or a payment that
 * came in after the cancellation) and records it. Idempotent: the order's state decides, and the provider
 * gets the order's one refund key, so a retry never refunds twice.
 */
export const refundOrderJob = defineCatalogJob("orders.refund", async (data, job) => {
  await completeOrderRefund(job.ctx, data.orderId);
});
