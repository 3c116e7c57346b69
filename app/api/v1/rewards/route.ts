import { otherMethods, paginated, route } from "@/lib/http";
import { rewardEndpoints } from "@/lib/http/endpoints";
import { listRewards } from "@/lib/services/rewards";

export const GET = route(rewardEndpoints.list, async ({ query, ctx }) => {
  return paginated(await listRewards(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(rewardEndpoints.list);
export { preflight as OPTIONS } from "@/lib/http";
