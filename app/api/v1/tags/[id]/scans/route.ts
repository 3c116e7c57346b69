import { otherMethods, paginated, route } from "@/lib/http";
import { listTagScans } from "@/lib/services/tags";
import { tagScanEndpoints } from "@/lib/http/endpoints";

export const GET = route(tagScanEndpoints.listScans, async ({ params, query, ctx }) => {
  return paginated(await listTagScans(ctx, params.id, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(tagScanEndpoints.listScans);
export { preflight as OPTIONS } from "@/lib/http";
