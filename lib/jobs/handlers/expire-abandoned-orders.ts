import { cancelAbandonedOrders } from "@/lib/services/orders/abandoned";
import { jobCatalog } from "../catalog";
import { defineJob } from "../define";

export interface ExpireAbandonedOrdersJobData {
  /** The order whose deadline scheduled this run; the run sweeps every overdue unpaid order anyway. */
  orderId?: string;
}

/**
 * Cancels orders left unpaid past ABANDONED_ORDER_HOURS, releasing their reserved stock. Enqueued per order
 * with `startAfter` its deadline (pg-boss cron is off); a sweep, so it is idempotent and also catches an
 * order whose own run was lost.
 */
export const expireAbandonedOrdersJob = defineJob({
  name: "orders.expire-abandoned",
  ...jobCatalog["orders.expire-abandoned"],
  handler: async (_data: ExpireAbandonedOrdersJobData, job) => {
    await cancelAbandonedOrders(job.ctx);
  },
});
