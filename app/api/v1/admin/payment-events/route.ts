import { otherMethods, paginated, route } from "@/lib/http";
import { paymentEndpoints } from "@/lib/http/endpoints";
import { listPaymentEvents } from "@/lib/services/payment-events";

export const GET = route(paymentEndpoints.adminList, async ({ query, ctx }) => {
  const { items, total } = await listPaymentEvents(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(paymentEndpoints.adminList);
export { preflight as OPTIONS } from "@/lib/http";
