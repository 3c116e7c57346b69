import { otherMethods, route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { forgotPassword } from "@/lib/services/auth";

export const POST = route(authEndpoints.forgotPassword, async ({ body, ctx }) => forgotPassword(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(authEndpoints.forgotPassword);
export { preflight as OPTIONS } from "@/lib/http";
