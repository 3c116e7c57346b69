import { otherMethods, paginated, route } from "@/lib/http";
import { paymentEndpoints } from "@/lib/http/endpoints";
import { listPaymentEvents } from "@/lib/services/payment-events";

export const GET = route(paymentEndpoints.adminList, async ({ query, ctx }) => {
  return paginated(await listPaymentEvents(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(paymentEndpoints.adminList);
export { preflight as OPTIONS } from "@/lib/http";
