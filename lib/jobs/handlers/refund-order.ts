import { completeOrderRefund } from "@/lib/services/orders/orders";
import { jobCatalog } from "../catalog";
import { defineJob } from "../define";

export interface RefundOrderJobData {
  orderId: string;
}

/**
 * Refunds a cancelled order's payment at the provider (a cancellation of a paid order, or a payment that
 * came in after the cancellation) and records it. Idempotent: the order's state decides, and the provider
 * gets the order's one refund key, so a retry never refunds twice.
 */
export const refundOrderJob = defineJob({
  name: "orders.refund",
  ...jobCatalog["orders.refund"],
  handler: async (data: RefundOrderJobData, job) => {
    await completeOrderRefund(job.ctx, data.orderId);
  },
});
