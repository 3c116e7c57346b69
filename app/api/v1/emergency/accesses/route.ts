import { otherMethods, paginated, route } from "@/lib/http";
import { emergencyEndpoints } from "@/lib/http/endpoints";
import { listEmergencyAccesses } from "@/lib/services/emergency";

export const GET = route(emergencyEndpoints.accesses, async ({ query, ctx }) => {
  return paginated(await listEmergencyAccesses(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(emergencyEndpoints.accesses);
export { preflight as OPTIONS } from "@/lib/http";
