import { otherMethods, paginated, route } from "@/lib/http";
import { organisationEndpoints } from "@/lib/http/endpoints";
import { listOrganisationAlerts } from "@/lib/services/organisations";

export const GET = route(organisationEndpoints.alerts, async ({ query, ctx }) => {
  return paginated(await listOrganisationAlerts(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(organisationEndpoints.alerts);
export { preflight as OPTIONS } from "@/lib/http";
