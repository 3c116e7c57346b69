import { otherMethods, route } from "@/lib/http";
import { scanEndpoints } from "@/lib/http/endpoints";
import { visitorFrom } from "@/lib/http/visitor";
import { shareFinderLocation } from "@/lib/services/scans";

export const POST = route(scanEndpoints.shareLocation, async ({ req, params, body, ctx, ip }) =>
  shareFinderLocation(ctx, params.encryptedId, body, visitorFrom(req.headers, req.method, ip)),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods(scanEndpoints.shareLocation);
export { preflight as OPTIONS } from "@/lib/http";
