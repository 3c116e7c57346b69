import { cancelAbandonedOrders } from "@/lib/services/orders";
import { defineCatalogJob } from "../catalog";

/**
 * Cancels orders left unpaid past ABANDONED_ORDER_HOURS, releasing their reserved stock. Enqueued per order
 * with `startAfter` its deadline (a delayed job, not a cron run); a sweep, so it is idempotent and also catches an
 * order whose own run was lost.
 */
export const expireAbandonedOrdersJob = defineCatalogJob("orders.expire-abandoned", async (_data, job) => {
  await cancelAbandonedOrders(job.ctx);
});
