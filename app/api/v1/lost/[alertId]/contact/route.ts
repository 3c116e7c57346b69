import { created, otherMethods, route } from "@/lib/http";
import { alertEndpoints } from "@/lib/http/endpoints";
import { visitorFrom } from "@/lib/http/visitor";
import { contactOwnerFromAlert } from "@/lib/services/alerts";

export const POST = route(alertEndpoints.contact, async ({ req, params, body, ctx, ip }) =>
  created(await contactOwnerFromAlert(ctx, params.alertId, body, visitorFrom(req.headers, req.method, ip))),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods(alertEndpoints.contact);
export { preflight as OPTIONS } from "@/lib/http";
