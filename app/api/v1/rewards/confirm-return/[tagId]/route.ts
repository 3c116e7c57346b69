import { otherMethods, route } from "@/lib/http";
import { rewardEndpoints } from "@/lib/http/endpoints";
import { confirmReturn } from "@/lib/services/rewards";

export const POST = route(rewardEndpoints.confirmReturn, async ({ params, body, ctx }) => confirmReturn(ctx, params.tagId, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(rewardEndpoints.confirmReturn);
export { preflight as OPTIONS } from "@/lib/http";
