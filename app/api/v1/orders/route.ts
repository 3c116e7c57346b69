import { otherMethods, paginated, route } from "@/lib/http";
import { orderEndpoints } from "@/lib/http/endpoints";
import { createOrder, listOrders } from "@/lib/services/orders";

export const GET = route(orderEndpoints.list, async ({ query, ctx }) => {
  return paginated(await listOrders(ctx, query));
});
export const POST = route(orderEndpoints.create, async ({ body, ctx }) => createOrder(ctx, body));
export const { PUT, PATCH, DELETE } = otherMethods(orderEndpoints.list, orderEndpoints.create);
export { preflight as OPTIONS } from "@/lib/http";
