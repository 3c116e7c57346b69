import { otherMethods, paginated, route } from "@/lib/http";
import { careerEndpoints } from "@/lib/http/endpoints";
import { listAllPositions } from "@/lib/services/content";

export const GET = route(careerEndpoints.adminList, async ({ query, ctx }) => {
  return paginated(await listAllPositions(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(careerEndpoints.adminList);
export { preflight as OPTIONS } from "@/lib/http";
