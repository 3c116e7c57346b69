import { otherMethods, paginated, route } from "@/lib/http";
import { contactEndpoints } from "@/lib/http/endpoints";
import { createCampaign, listCampaigns } from "@/lib/services/campaigns";

export const POST = route(contactEndpoints.adminCreateCampaign, async ({ body, ctx }) => createCampaign(ctx, body));
export const GET = route(contactEndpoints.adminListCampaigns, async ({ query, ctx }) => {
  return paginated(await listCampaigns(ctx, query));
});
export const { PUT, PATCH, DELETE } = otherMethods(contactEndpoints.adminCreateCampaign, contactEndpoints.adminListCampaigns);
export { preflight as OPTIONS } from "@/lib/http";
