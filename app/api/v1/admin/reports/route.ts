import { otherMethods, paginated, route } from "@/lib/http";
import { reportEndpoints } from "@/lib/http/endpoints";
import { listReportsForAdmin } from "@/lib/services/reports";

export const GET = route(reportEndpoints.adminList, async ({ query, ctx }) => {
  return paginated(await listReportsForAdmin(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(reportEndpoints.adminList);
export { preflight as OPTIONS } from "@/lib/http";
