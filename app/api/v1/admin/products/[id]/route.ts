import { otherMethods, route } from "@/lib/http";
import { productEndpoints } from "@/lib/http/endpoints";
import { updateProduct } from "@/lib/services/orders";

export const PATCH = route(productEndpoints.adminUpdate, async ({ params, body, ctx }) => updateProduct(ctx, params.id, body));
export const { GET, POST, PUT, DELETE } = otherMethods(productEndpoints.adminUpdate);
export { preflight as OPTIONS } from "@/lib/http";
