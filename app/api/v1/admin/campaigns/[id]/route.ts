import { otherMethods, route } from "@/lib/http";
import { contactEndpoints } from "@/lib/http/endpoints";
import { getCampaign } from "@/lib/services/campaigns";

export const GET = route(contactEndpoints.adminGetCampaign, async ({ params, ctx }) => getCampaign(ctx, params.id));
export const { POST, PUT, PATCH, DELETE } = otherMethods(contactEndpoints.adminGetCampaign);
export { preflight as OPTIONS } from "@/lib/http";
