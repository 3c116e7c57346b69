import { route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { listSessions, revokeOtherSessions } from "@/lib/services/auth";

export const GET = route(authEndpoints.listSessions, async ({ ctx }) => listSessions(ctx));
export const DELETE = route(authEndpoints.revokeOtherSessions, async ({ ctx }) => revokeOtherSessions(ctx));
export { preflight as OPTIONS } from "@/lib/http";
