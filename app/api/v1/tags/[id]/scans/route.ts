import { otherMethods, paginated, route } from "@/lib/http";
import { listTagScans } from "@/lib/services/tags";
import { tagScanEndpoints } from "@/lib/http/endpoints";

export const GET = route(tagScanEndpoints.listScans, async ({ params, query, ctx }) => {
  const { items, total } = await listTagScans(ctx, params.id, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(tagScanEndpoints.listScans);
export { preflight as OPTIONS } from "@/lib/http";
