import { otherMethods, route } from "@/lib/http";
import { reportEndpoints } from "@/lib/http/endpoints";
import { createReport } from "@/lib/services/reports";

export const POST = route(reportEndpoints.create, async ({ body, ctx }) => createReport(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(reportEndpoints.create);
export { preflight as OPTIONS } from "@/lib/http";
