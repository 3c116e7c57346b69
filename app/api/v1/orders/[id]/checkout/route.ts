import { otherMethods, route } from "@/lib/http";
import { orderEndpoints } from "@/lib/http/endpoints";
import { checkoutOrder } from "@/lib/services/orders";

export const POST = route(orderEndpoints.checkout, async ({ params, ctx }) => checkoutOrder(ctx, params.id));
export const { GET, PUT, PATCH, DELETE } = otherMethods(orderEndpoints.checkout);
export { preflight as OPTIONS } from "@/lib/http";
