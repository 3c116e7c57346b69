import { otherMethods, route } from "@/lib/http";
import { alertEndpoints } from "@/lib/http/endpoints";
import { deleteAlertArea, getAlertArea, putAlertArea } from "@/lib/services/alerts";

export const GET = route(alertEndpoints.getArea, async ({ ctx }) => getAlertArea(ctx));
export const PUT = route(alertEndpoints.putArea, async ({ body, ctx }) => putAlertArea(ctx, body));
export const DELETE = route(alertEndpoints.deleteArea, async ({ ctx }) => deleteAlertArea(ctx));
export const { POST, PATCH } = otherMethods(alertEndpoints.getArea, alertEndpoints.putArea, alertEndpoints.deleteArea);
export { preflight as OPTIONS } from "@/lib/http";
