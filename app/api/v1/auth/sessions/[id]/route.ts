import { route } from "@/lib/http";
import { sessionEndpoints } from "@/lib/http/endpoints";
import { revokeSession } from "@/lib/services/auth";

export const DELETE = route(sessionEndpoints.revokeSession, async ({ params, ctx }) => revokeSession(ctx, params.id));
export { preflight as OPTIONS } from "@/lib/http";
