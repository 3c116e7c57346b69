import { otherMethods, route } from "@/lib/http";
import { profileEndpoints } from "@/lib/http/endpoints";
import { deletePhoto } from "@/lib/services/profiles";

export const DELETE = route(profileEndpoints.deletePhoto, async ({ params, ctx }) => deletePhoto(ctx, params.tagId, params.photoId));
export const { GET, POST, PUT, PATCH } = otherMethods(profileEndpoints.deletePhoto);
export { preflight as OPTIONS } from "@/lib/http";
