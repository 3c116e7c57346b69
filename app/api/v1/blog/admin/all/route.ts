import { otherMethods, paginated, route } from "@/lib/http";
import { blogEndpoints } from "@/lib/http/endpoints";
import { listAllPosts } from "@/lib/services/content";

export const GET = route(blogEndpoints.adminList, async ({ query, ctx }) => {
  const { items, total } = await listAllPosts(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(blogEndpoints.adminList);
export { preflight as OPTIONS } from "@/lib/http";
