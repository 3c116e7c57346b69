import { otherMethods, route } from "@/lib/http";
import { reportEndpoints } from "@/lib/http/endpoints";
import { updateReport } from "@/lib/services/reports";

export const PATCH = route(reportEndpoints.adminUpdate, async ({ params, body, ctx }) => updateReport(ctx, params.id, body));
export const { GET, POST, PUT, DELETE } = otherMethods(reportEndpoints.adminUpdate);
export { preflight as OPTIONS } from "@/lib/http";
