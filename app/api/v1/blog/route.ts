import { otherMethods, paginated, route } from "@/lib/http";
import { blogEndpoints } from "@/lib/http/endpoints";
import { createPost, listPublishedPosts } from "@/lib/services/content";

export const GET = route(blogEndpoints.list, async ({ query, ctx }) => {
  return paginated(await listPublishedPosts(ctx, query));
});
export const POST = route(blogEndpoints.create, async ({ body, ctx }) => createPost(ctx, body));
export const { PUT, PATCH, DELETE } = otherMethods(blogEndpoints.list, blogEndpoints.create);
export { preflight as OPTIONS } from "@/lib/http";
