import { otherMethods, paginated, route } from "@/lib/http";
import { productEndpoints } from "@/lib/http/endpoints";
import { listProducts } from "@/lib/services/orders";

export const GET = route(productEndpoints.list, async ({ query, ctx }) => {
  const { items, total } = await listProducts(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(productEndpoints.list);
export { preflight as OPTIONS } from "@/lib/http";
