import { otherMethods, paginated, route } from "@/lib/http";
import { productEndpoints } from "@/lib/http/endpoints";
import { createProduct, listAdminProducts } from "@/lib/services/orders";

export const GET = route(productEndpoints.adminList, async ({ query, ctx }) => {
  return paginated(await listAdminProducts(ctx, query));
});
export const POST = route(productEndpoints.adminCreate, async ({ body, ctx }) => createProduct(ctx, body));
export const { PUT, PATCH, DELETE } = otherMethods(productEndpoints.adminList, productEndpoints.adminCreate);
export { preflight as OPTIONS } from "@/lib/http";
