import { otherMethods, route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { resetPassword } from "@/lib/services/auth";

export const POST = route(authEndpoints.resetPassword, async ({ body, ctx }) => resetPassword(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(authEndpoints.resetPassword);
export { preflight as OPTIONS } from "@/lib/http";
