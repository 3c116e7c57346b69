import { otherMethods, paginated, route } from "@/lib/http";
import { organisationEndpoints } from "@/lib/http/endpoints";
import { listOrganisationsForAdmin } from "@/lib/services/organisations";

export const GET = route(organisationEndpoints.adminList, async ({ query, ctx }) => {
  const { items, total } = await listOrganisationsForAdmin(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(organisationEndpoints.adminList);
export { preflight as OPTIONS } from "@/lib/http";
