import { otherMethods, paginated, route } from "@/lib/http";
import { organisationEndpoints } from "@/lib/http/endpoints";
import { listOrganisationsForAdmin } from "@/lib/services/organisations";

export const GET = route(organisationEndpoints.adminList, async ({ query, ctx }) => {
  return paginated(await listOrganisationsForAdmin(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(organisationEndpoints.adminList);
export { preflight as OPTIONS } from "@/lib/http";
