import { otherMethods, route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { changePassword } from "@/lib/services/auth";

export const POST = route(authEndpoints.changePassword, async ({ body, ctx }) => changePassword(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(authEndpoints.changePassword);
export { preflight as OPTIONS } from "@/lib/http";
