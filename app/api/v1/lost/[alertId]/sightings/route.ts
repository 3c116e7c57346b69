import { created, otherMethods, route } from "@/lib/http";
import { alertEndpoints } from "@/lib/http/endpoints";
import { visitorFrom } from "@/lib/http/visitor";
import { reportSighting } from "@/lib/services/alerts";

export const POST = route(alertEndpoints.sighting, async ({ req, params, body, ctx, ip }) =>
  created(await reportSighting(ctx, params.alertId, body, visitorFrom(req.headers, req.method, ip))),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods(alertEndpoints.sighting);
export { preflight as OPTIONS } from "@/lib/http";
