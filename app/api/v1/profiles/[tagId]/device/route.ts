import { otherMethods, route } from "@/lib/http";
import { profileEndpoints } from "@/lib/http/endpoints";
import { putDeviceProfile } from "@/lib/services/profiles";

export const PUT = route(profileEndpoints.putDevice, async ({ params, body, ctx }) => putDeviceProfile(ctx, params.tagId, body));
export const { GET, POST, PATCH, DELETE } = otherMethods(profileEndpoints.putDevice);
export { preflight as OPTIONS } from "@/lib/http";
