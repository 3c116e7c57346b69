import { otherMethods, route } from "@/lib/http";
import { rewardEndpoints } from "@/lib/http/endpoints";
import { payReward } from "@/lib/services/rewards";

export const POST = route(rewardEndpoints.pay, async ({ params, body, ctx }) => payReward(ctx, params.id, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(rewardEndpoints.pay);
export { preflight as OPTIONS } from "@/lib/http";
