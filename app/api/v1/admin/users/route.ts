import { otherMethods, paginated, route } from "@/lib/http";
import { adminPlatformEndpoints } from "@/lib/http/endpoints";
import { listUsersForAdmin } from "@/lib/services/admin";

export const GET = route(adminPlatformEndpoints.users, async ({ query, ctx }) => {
  const { items, total } = await listUsersForAdmin(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(adminPlatformEndpoints.users);
export { preflight as OPTIONS } from "@/lib/http";
