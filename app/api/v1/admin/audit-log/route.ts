import { otherMethods, paginated, route } from "@/lib/http";
import { adminPlatformEndpoints } from "@/lib/http/endpoints";
import { listAuditLog } from "@/lib/services/admin";

export const GET = route(adminPlatformEndpoints.auditLog, async ({ query, ctx }) => {
  const { items, total } = await listAuditLog(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(adminPlatformEndpoints.auditLog);
export { preflight as OPTIONS } from "@/lib/http";
