import { otherMethods, route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { sendVerification } from "@/lib/services/auth";

export const POST = route(authEndpoints.sendVerification, async ({ ctx }) => sendVerification(ctx));
export const { GET, PUT, PATCH, DELETE } = otherMethods(authEndpoints.sendVerification);
export { preflight as OPTIONS } from "@/lib/http";
