import { otherMethods, route } from "@/lib/http";
import { tagEndpoints } from "@/lib/http/endpoints";
import { bulkActivateTags } from "@/lib/services/tags";

export const POST = route(tagEndpoints.bulkActivate, async ({ body, ctx }) => bulkActivateTags(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(tagEndpoints.bulkActivate);
export { preflight as OPTIONS } from "@/lib/http";
