import { otherMethods, route } from "@/lib/http";
import { rewardEndpoints } from "@/lib/http/endpoints";
import { finderReward } from "@/lib/services/rewards";

export const GET = route(rewardEndpoints.finder, async ({ params, ctx }) => finderReward(ctx, params.token));
export const { POST, PUT, PATCH, DELETE } = otherMethods(rewardEndpoints.finder);
export { preflight as OPTIONS } from "@/lib/http";
