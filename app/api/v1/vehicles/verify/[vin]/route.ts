import { otherMethods, route } from "@/lib/http";
import { tagExtraEndpoints } from "@/lib/http/endpoints/tag-extras";
import { verifyVin } from "@/lib/services/vehicles";

export const GET = route(tagExtraEndpoints.verifyVin, async ({ params, ctx }) => verifyVin(ctx, params.vin));
export const { POST, PUT, PATCH, DELETE } = otherMethods(tagExtraEndpoints.verifyVin);
export { preflight as OPTIONS } from "@/lib/http";
