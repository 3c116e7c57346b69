import { otherMethods, route } from "@/lib/http";
import { adminPlatformEndpoints } from "@/lib/http/endpoints";
import { getAdminStats } from "@/lib/services/admin";

export const GET = route(adminPlatformEndpoints.stats, async ({ ctx }) => getAdminStats(ctx));
export const { POST, PUT, PATCH, DELETE } = otherMethods(adminPlatformEndpoints.stats);
export { preflight as OPTIONS } from "@/lib/http";
