import { otherMethods, route } from "@/lib/http";
import { tagExtraEndpoints } from "@/lib/http/endpoints/tag-extras";
import { declineTransfer } from "@/lib/services/tags";

export const POST = route(tagExtraEndpoints.declineTransfer, async ({ params, ctx }) => declineTransfer(ctx, params.id));
export const { GET, PUT, PATCH, DELETE } = otherMethods(tagExtraEndpoints.declineTransfer);
export { preflight as OPTIONS } from "@/lib/http";
