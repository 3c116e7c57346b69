import { otherMethods, paginated, route } from "@/lib/http";
import { productEndpoints } from "@/lib/http/endpoints";
import { createProduct, listAdminProducts } from "@/lib/services/orders";

export const GET = route(productEndpoints.adminList, async ({ query, ctx }) => {
  const { items, total } = await listAdminProducts(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const POST = route(productEndpoints.adminCreate, async ({ body, ctx }) => createProduct(ctx, body));
export const { PUT, PATCH, DELETE } = otherMethods(productEndpoints.adminList, productEndpoints.adminCreate);
export { preflight as OPTIONS } from "@/lib/http";
