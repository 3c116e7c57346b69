import { otherMethods, route } from "@/lib/http";
import { tagExtraEndpoints } from "@/lib/http/endpoints/tag-extras";
import { acceptTransfer } from "@/lib/services/tags";

export const POST = route(tagExtraEndpoints.acceptTransfer, async ({ params, ctx }) => acceptTransfer(ctx, params.id));
export const { GET, PUT, PATCH, DELETE } = otherMethods(tagExtraEndpoints.acceptTransfer);
export { preflight as OPTIONS } from "@/lib/http";
