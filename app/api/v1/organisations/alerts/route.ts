import { otherMethods, paginated, route } from "@/lib/http";
import { organisationEndpoints } from "@/lib/http/endpoints";
import { listOrganisationAlerts } from "@/lib/services/organisations";

export const GET = route(organisationEndpoints.alerts, async ({ query, ctx }) => {
  const { items, total } = await listOrganisationAlerts(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(organisationEndpoints.alerts);
export { preflight as OPTIONS } from "@/lib/http";
