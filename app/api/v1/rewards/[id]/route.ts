import { otherMethods, route } from "@/lib/http";
import { rewardEndpoints } from "@/lib/http/endpoints";
import { createReward, deleteReward } from "@/lib/services/rewards";

export const POST = route(rewardEndpoints.create, async ({ params, body, ctx }) => createReward(ctx, params.id, body));
export const DELETE = route(rewardEndpoints.remove, async ({ params, ctx }) => deleteReward(ctx, params.id));
export const { GET, PUT, PATCH } = otherMethods(rewardEndpoints.create, rewardEndpoints.remove);
export { preflight as OPTIONS } from "@/lib/http";
