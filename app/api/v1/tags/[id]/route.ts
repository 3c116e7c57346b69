import { otherMethods, route } from "@/lib/http";
import { tagEndpoints } from "@/lib/http/endpoints";
import { getTag, releaseTag, updateTag } from "@/lib/services/tags";

export const GET = route(tagEndpoints.get, async ({ params, ctx }) => getTag(ctx, params.id));
export const PATCH = route(tagEndpoints.update, async ({ params, body, ctx }) => updateTag(ctx, params.id, body));
export const DELETE = route(tagEndpoints.release, async ({ params, ctx }) => releaseTag(ctx, params.id));
export const { POST, PUT } = otherMethods(tagEndpoints.get, tagEndpoints.update, tagEndpoints.release);
export { preflight as OPTIONS } from "@/lib/http";
