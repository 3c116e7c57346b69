import { otherMethods, route } from "@/lib/http";
import { adminPlatformEndpoints } from "@/lib/http/endpoints";
import { updateUserAsAdmin } from "@/lib/services/admin";

export const PATCH = route(adminPlatformEndpoints.updateUser, async ({ params, body, ctx }) => updateUserAsAdmin(ctx, params.id, body));
export const { GET, POST, PUT, DELETE } = otherMethods(adminPlatformEndpoints.updateUser);
export { preflight as OPTIONS } from "@/lib/http";
