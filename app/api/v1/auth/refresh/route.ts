import { route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { refreshSession } from "@/lib/services/auth";

export const POST = route(authEndpoints.refresh, async ({ body, ctx }) => refreshSession(ctx, body.refreshToken));
export { preflight as OPTIONS } from "@/lib/http";
