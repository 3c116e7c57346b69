import { otherMethods, paginated, route } from "@/lib/http";
import { tagExtraEndpoints } from "@/lib/http/endpoints/tag-extras";
import { listTagScans } from "@/lib/services/tags";

export const GET = route(tagExtraEndpoints.listScans, async ({ params, query, ctx }) => {
  const { items, total } = await listTagScans(ctx, params.id, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(tagExtraEndpoints.listScans);
export { preflight as OPTIONS } from "@/lib/http";
