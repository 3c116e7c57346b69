import { otherMethods, route } from "@/lib/http";
import { alertEndpoints } from "@/lib/http/endpoints";
import { getPublicLostAlert } from "@/lib/services/alerts";

export const GET = route(alertEndpoints.getPublic, async ({ params, ctx }) => getPublicLostAlert(ctx, params.alertId));
export const { POST, PUT, PATCH, DELETE } = otherMethods(alertEndpoints.getPublic);
export { preflight as OPTIONS } from "@/lib/http";
