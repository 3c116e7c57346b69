import { route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { disableTwoFactor } from "@/lib/services/auth";

export const POST = route(authEndpoints.disableTwoFactor, async ({ body, ctx }) => disableTwoFactor(ctx, body));
export { preflight as OPTIONS } from "@/lib/http";
