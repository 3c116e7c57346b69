import { otherMethods, route } from "@/lib/http";
import { tagExtraEndpoints } from "@/lib/http/endpoints/tag-extras";
import { listTransfers } from "@/lib/services/tags";

export const GET = route(tagExtraEndpoints.listTransfers, async ({ ctx }) => listTransfers(ctx));
export const { POST, PUT, PATCH, DELETE } = otherMethods(tagExtraEndpoints.listTransfers);
export { preflight as OPTIONS } from "@/lib/http";
