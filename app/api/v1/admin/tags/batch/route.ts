import { otherMethods, route } from "@/lib/http";
import { tagEndpoints } from "@/lib/http/endpoints";
import { mintTags } from "@/lib/services/tags";

export const POST = route(tagEndpoints.mint, async ({ body, ctx }) => mintTags(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(tagEndpoints.mint);
export { preflight as OPTIONS } from "@/lib/http";
