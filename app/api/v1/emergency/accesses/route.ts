import { otherMethods, paginated, route } from "@/lib/http";
import { emergencyEndpoints } from "@/lib/http/endpoints";
import { listEmergencyAccesses } from "@/lib/services/emergency";

export const GET = route(emergencyEndpoints.accesses, async ({ query, ctx }) => {
  const { items, total } = await listEmergencyAccesses(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(emergencyEndpoints.accesses);
export { preflight as OPTIONS } from "@/lib/http";
