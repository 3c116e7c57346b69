import { otherMethods, route } from "@/lib/http";
import { profileEndpoints } from "@/lib/http/endpoints";
import { deletePhoto, setPrimaryPhoto } from "@/lib/services/profiles";

export const PATCH = route(profileEndpoints.setPrimaryPhoto, async ({ params, ctx }) => setPrimaryPhoto(ctx, params.tagId, params.photoId));
export const DELETE = route(profileEndpoints.deletePhoto, async ({ params, ctx }) => deletePhoto(ctx, params.tagId, params.photoId));
export const { GET, POST, PUT } = otherMethods(profileEndpoints.setPrimaryPhoto, profileEndpoints.deletePhoto);
export { preflight as OPTIONS } from "@/lib/http";
