import { route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { verifyTwoFactor } from "@/lib/services/auth";

export const POST = route(authEndpoints.verifyTwoFactor, async ({ body, ctx }) => verifyTwoFactor(ctx, body));
export { preflight as OPTIONS } from "@/lib/http";
