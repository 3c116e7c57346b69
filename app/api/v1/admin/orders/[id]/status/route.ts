import { otherMethods, route } from "@/lib/http";
import { orderEndpoints } from "@/lib/http/endpoints";
import { setOrderStatus } from "@/lib/services/orders";

export const PATCH = route(orderEndpoints.adminStatus, async ({ params, body, ctx }) => setOrderStatus(ctx, params.id, body));
export const { GET, POST, PUT, DELETE } = otherMethods(orderEndpoints.adminStatus);
export { preflight as OPTIONS } from "@/lib/http";
