import { otherMethods, route } from "@/lib/http";
import { orderEndpoints } from "@/lib/http/endpoints";
import { cancelOrder } from "@/lib/services/orders";

export const POST = route(orderEndpoints.cancel, async ({ params, ctx }) => cancelOrder(ctx, params.id));
export const { GET, PUT, PATCH, DELETE } = otherMethods(orderEndpoints.cancel);
export { preflight as OPTIONS } from "@/lib/http";
