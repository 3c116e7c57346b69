import { otherMethods, route } from "@/lib/http";
import { rewardEndpoints } from "@/lib/http/endpoints";
import { disputeReward } from "@/lib/services/rewards";

export const POST = route(rewardEndpoints.dispute, async ({ params, body, ctx }) => disputeReward(ctx, params.id, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(rewardEndpoints.dispute);
export { preflight as OPTIONS } from "@/lib/http";
