import { otherMethods, route } from "@/lib/http";
import { blogEndpoints } from "@/lib/http/endpoints";
import { deletePost, getPublishedPost, updatePost } from "@/lib/services/content";

// GET takes the post's slug, PATCH and DELETE its id: one dynamic segment for both (see blogEndpoints).
export const GET = route(blogEndpoints.get, async ({ params, ctx }) => getPublishedPost(ctx, params.slugOrId));
export const PATCH = route(blogEndpoints.update, async ({ params, body, ctx }) => updatePost(ctx, params.slugOrId, body));
export const DELETE = route(blogEndpoints.remove, async ({ params, ctx }) => deletePost(ctx, params.slugOrId));
export const { POST, PUT } = otherMethods(blogEndpoints.get, blogEndpoints.update, blogEndpoints.remove);
export { preflight as OPTIONS } from "@/lib/http";
