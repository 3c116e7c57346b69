import { otherMethods, route } from "@/lib/http";
import { tagExtraEndpoints } from "@/lib/http/endpoints/tag-extras";
import { reportVehicleStolen } from "@/lib/services/vehicles";

export const POST = route(tagExtraEndpoints.reportStolen, async ({ params, body, ctx }) => reportVehicleStolen(ctx, params.tagId, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(tagExtraEndpoints.reportStolen);
export { preflight as OPTIONS } from "@/lib/http";
