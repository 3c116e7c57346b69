import { otherMethods, paginated, route } from "@/lib/http";
import { rewardEndpoints } from "@/lib/http/endpoints";
import { listRewards } from "@/lib/services/rewards";

export const GET = route(rewardEndpoints.list, async ({ query, ctx }) => {
  const { items, total } = await listRewards(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(rewardEndpoints.list);
export { preflight as OPTIONS } from "@/lib/http";
