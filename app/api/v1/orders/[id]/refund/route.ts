import { otherMethods, route } from "@/lib/http";
import { orderEndpoints } from "@/lib/http/endpoints";
import { refundOrder } from "@/lib/services/orders";

export const POST = route(orderEndpoints.refund, async ({ params, ctx }) => refundOrder(ctx, params.id));
export const { GET, PUT, PATCH, DELETE } = otherMethods(orderEndpoints.refund);
export { preflight as OPTIONS } from "@/lib/http";
