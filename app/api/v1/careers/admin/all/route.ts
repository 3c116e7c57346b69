import { otherMethods, paginated, route } from "@/lib/http";
import { careerEndpoints } from "@/lib/http/endpoints";
import { listAllPositions } from "@/lib/services/content";

export const GET = route(careerEndpoints.adminList, async ({ query, ctx }) => {
  const { items, total } = await listAllPositions(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(careerEndpoints.adminList);
export { preflight as OPTIONS } from "@/lib/http";
