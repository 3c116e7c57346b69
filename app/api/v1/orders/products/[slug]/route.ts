import { otherMethods, route } from "@/lib/http";
import { productEndpoints } from "@/lib/http/endpoints";
import { getProductBySlug } from "@/lib/services/orders";

export const GET = route(productEndpoints.get, async ({ params, ctx }) => getProductBySlug(ctx, params.slug));
export const { POST, PUT, PATCH, DELETE } = otherMethods(productEndpoints.get);
export { preflight as OPTIONS } from "@/lib/http";
