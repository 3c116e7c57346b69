import { otherMethods, route } from "@/lib/http";
import { reportEndpoints } from "@/lib/http/endpoints";
import { listMyReports } from "@/lib/services/reports";

export const GET = route(reportEndpoints.mine, async ({ ctx }) => listMyReports(ctx));
export const { POST, PUT, PATCH, DELETE } = otherMethods(reportEndpoints.mine);
export { preflight as OPTIONS } from "@/lib/http";
