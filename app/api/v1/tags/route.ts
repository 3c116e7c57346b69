import { otherMethods, paginated, route } from "@/lib/http";
import { tagEndpoints } from "@/lib/http/endpoints";
import { listTags } from "@/lib/services/tags";

export const GET = route(tagEndpoints.list, async ({ query, ctx }) => {
  const { items, total } = await listTags(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(tagEndpoints.list);
export { preflight as OPTIONS } from "@/lib/http";
