import { otherMethods, paginated, route } from "@/lib/http";
import { messageEndpoints } from "@/lib/http/endpoints";
import { listThreads } from "@/lib/services/messages";

export const GET = route(messageEndpoints.list, async ({ query, ctx }) => {
  const { items, total } = await listThreads(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(messageEndpoints.list);
export { preflight as OPTIONS } from "@/lib/http";
