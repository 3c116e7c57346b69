import { otherMethods, paginated, route } from "@/lib/http";
import { blogEndpoints } from "@/lib/http/endpoints";
import { listAllPosts } from "@/lib/services/content";

export const GET = route(blogEndpoints.adminList, async ({ query, ctx }) => {
  return paginated(await listAllPosts(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(blogEndpoints.adminList);
export { preflight as OPTIONS } from "@/lib/http";
