import { otherMethods, paginated, route } from "@/lib/http";
import { orderEndpoints } from "@/lib/http/endpoints";
import { listAdminOrders } from "@/lib/services/orders";

export const GET = route(orderEndpoints.adminList, async ({ query, ctx }) => {
  return paginated(await listAdminOrders(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(orderEndpoints.adminList);
export { preflight as OPTIONS } from "@/lib/http";
