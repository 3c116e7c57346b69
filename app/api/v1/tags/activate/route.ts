import { otherMethods, route } from "@/lib/http";
import { tagEndpoints } from "@/lib/http/endpoints";
import { activateTag } from "@/lib/services/tags";

export const POST = route(tagEndpoints.activate, async ({ body, ctx }) => activateTag(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(tagEndpoints.activate);
export { preflight as OPTIONS } from "@/lib/http";
