import { otherMethods, route } from "@/lib/http";
import { alertEndpoints } from "@/lib/http/endpoints";
import { listTagAlerts } from "@/lib/services/alerts";

export const GET = route(alertEndpoints.listForTag, async ({ params, ctx }) => listTagAlerts(ctx, params.id));
export const { POST, PUT, PATCH, DELETE } = otherMethods(alertEndpoints.listForTag);
export { preflight as OPTIONS } from "@/lib/http";
