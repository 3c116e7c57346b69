import { otherMethods, route } from "@/lib/http";
import { orderEndpoints } from "@/lib/http/endpoints";
import { getOrder } from "@/lib/services/orders";

export const GET = route(orderEndpoints.get, async ({ params, ctx }) => getOrder(ctx, params.id));
export const { POST, PUT, PATCH, DELETE } = otherMethods(orderEndpoints.get);
export { preflight as OPTIONS } from "@/lib/http";
