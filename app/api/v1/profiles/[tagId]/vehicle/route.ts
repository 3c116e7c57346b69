import { otherMethods, route } from "@/lib/http";
import { profileEndpoints } from "@/lib/http/endpoints";
import { putVehicleProfile } from "@/lib/services/profiles";

export const PUT = route(profileEndpoints.putVehicle, async ({ params, body, ctx }) => putVehicleProfile(ctx, params.tagId, body));
export const { GET, POST, PATCH, DELETE } = otherMethods(profileEndpoints.putVehicle);
export { preflight as OPTIONS } from "@/lib/http";
