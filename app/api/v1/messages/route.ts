import { otherMethods, paginated, route } from "@/lib/http";
import { messageEndpoints } from "@/lib/http/endpoints";
import { listThreads } from "@/lib/services/messages";

export const GET = route(messageEndpoints.list, async ({ query, ctx }) => {
  return paginated(await listThreads(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(messageEndpoints.list);
export { preflight as OPTIONS } from "@/lib/http";
