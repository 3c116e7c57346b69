import { otherMethods, paginated, route } from "@/lib/http";
import { adminPlatformEndpoints } from "@/lib/http/endpoints";
import { listUsersForAdmin } from "@/lib/services/admin";

export const GET = route(adminPlatformEndpoints.users, async ({ query, ctx }) => {
  return paginated(await listUsersForAdmin(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(adminPlatformEndpoints.users);
export { preflight as OPTIONS } from "@/lib/http";
