import { otherMethods, route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { verifyEmail } from "@/lib/services/auth";

export const POST = route(authEndpoints.verifyEmail, async ({ body, ctx }) => verifyEmail(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(authEndpoints.verifyEmail);
export { preflight as OPTIONS } from "@/lib/http";
