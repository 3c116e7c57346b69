import { otherMethods, paginated, route } from "@/lib/http";
import { adminPlatformEndpoints } from "@/lib/http/endpoints";
import { listAuditLog } from "@/lib/services/admin";

export const GET = route(adminPlatformEndpoints.auditLog, async ({ query, ctx }) => {
  return paginated(await listAuditLog(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(adminPlatformEndpoints.auditLog);
export { preflight as OPTIONS } from "@/lib/http";
