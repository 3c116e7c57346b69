import { otherMethods, route } from "@/lib/http";
import { reportEndpoints } from "@/lib/http/endpoints";
import { applyReportAction } from "@/lib/services/reports";

export const POST = route(reportEndpoints.adminAction, async ({ params, body, ctx }) => applyReportAction(ctx, params.id, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(reportEndpoints.adminAction);
export { preflight as OPTIONS } from "@/lib/http";
