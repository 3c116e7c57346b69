import { otherMethods, paginated, route } from "@/lib/http";
import { alertEndpoints } from "@/lib/http/endpoints";
import { listNearbyAlerts } from "@/lib/services/alerts";

export const GET = route(alertEndpoints.nearby, async ({ query, ctx }) => {
  const { items, total } = await listNearbyAlerts(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(alertEndpoints.nearby);
export { preflight as OPTIONS } from "@/lib/http";
