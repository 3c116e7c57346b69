import { route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { enableTwoFactor } from "@/lib/services/auth";

export const POST = route(authEndpoints.enableTwoFactor, async ({ ctx }) => enableTwoFactor(ctx));
export { preflight as OPTIONS } from "@/lib/http";
