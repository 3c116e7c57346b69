import { otherMethods, paginated, route } from "@/lib/http";
import { alertEndpoints } from "@/lib/http/endpoints";
import { listNearbyAlerts } from "@/lib/services/alerts";

export const GET = route(alertEndpoints.nearby, async ({ query, ctx }) => {
  return paginated(await listNearbyAlerts(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(alertEndpoints.nearby);
export { preflight as OPTIONS } from "@/lib/http";
