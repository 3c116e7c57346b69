import { otherMethods, paginated, route } from "@/lib/http";
import { orderEndpoints } from "@/lib/http/endpoints";
import { listAdminOrders } from "@/lib/services/orders";

export const GET = route(orderEndpoints.adminList, async ({ query, ctx }) => {
  const { items, total } = await listAdminOrders(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(orderEndpoints.adminList);
export { preflight as OPTIONS } from "@/lib/http";
