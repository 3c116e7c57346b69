import { route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { revokeSession } from "@/lib/services/auth";

export const DELETE = route(authEndpoints.revokeSession, async ({ params, ctx }) => revokeSession(ctx, params.id));
export { preflight as OPTIONS } from "@/lib/http";
