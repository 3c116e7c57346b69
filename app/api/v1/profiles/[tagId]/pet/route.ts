import { otherMethods, route } from "@/lib/http";
import { profileEndpoints } from "@/lib/http/endpoints";
import { putPetProfile } from "@/lib/services/profiles";

export const PUT = route(profileEndpoints.putPet, async ({ params, body, ctx }) => putPetProfile(ctx, params.tagId, body));
export const { GET, POST, PATCH, DELETE } = otherMethods(profileEndpoints.putPet);
export { preflight as OPTIONS } from "@/lib/http";
