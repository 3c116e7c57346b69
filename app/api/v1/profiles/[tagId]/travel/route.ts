import { otherMethods, route } from "@/lib/http";
import { profileEndpoints } from "@/lib/http/endpoints";
import { putTravelProfile } from "@/lib/services/profiles";

export const PUT = route(profileEndpoints.putTravel, async ({ params, body, ctx }) => putTravelProfile(ctx, params.tagId, body));
export const { GET, POST, PATCH, DELETE } = otherMethods(profileEndpoints.putTravel);
export { preflight as OPTIONS } from "@/lib/http";
