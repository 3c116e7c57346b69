import { otherMethods, paginated, route } from "@/lib/http";
import { productEndpoints } from "@/lib/http/endpoints";
import { listProducts } from "@/lib/services/orders";

export const GET = route(productEndpoints.list, async ({ query, ctx }) => {
  return paginated(await listProducts(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(productEndpoints.list);
export { preflight as OPTIONS } from "@/lib/http";
