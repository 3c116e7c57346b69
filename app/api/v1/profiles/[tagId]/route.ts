import { otherMethods, route } from "@/lib/http";
import { profileEndpoints } from "@/lib/http/endpoints";
import { getProfile, updateProfile } from "@/lib/services/profiles";

export const GET = route(profileEndpoints.get, async ({ params, ctx }) => getProfile(ctx, params.tagId));
export const PATCH = route(profileEndpoints.update, async ({ params, body, ctx }) => updateProfile(ctx, params.tagId, body));
export const { POST, PUT, DELETE } = otherMethods(profileEndpoints.get, profileEndpoints.update);
export { preflight as OPTIONS } from "@/lib/http";
