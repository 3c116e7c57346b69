import { route } from "@/lib/http";
import { sessionEndpoints } from "@/lib/http/endpoints";
import { listSessions, revokeOtherSessions } from "@/lib/services/auth";

export const GET = route(sessionEndpoints.listSessions, async ({ ctx }) => listSessions(ctx));
export const DELETE = route(sessionEndpoints.revokeOtherSessions, async ({ ctx }) => revokeOtherSessions(ctx));
export { preflight as OPTIONS } from "@/lib/http";
