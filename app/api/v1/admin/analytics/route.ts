import { otherMethods, route } from "@/lib/http";
import { adminPlatformEndpoints } from "@/lib/http/endpoints";
import { getAdminAnalytics } from "@/lib/services/admin";

export const GET = route(adminPlatformEndpoints.analytics, async ({ query, ctx }) => getAdminAnalytics(ctx, query));
export const { POST, PUT, PATCH, DELETE } = otherMethods(adminPlatformEndpoints.analytics);
export { preflight as OPTIONS } from "@/lib/http";
