import { otherMethods, route } from "@/lib/http";
import { emergencyEndpoints } from "@/lib/http/endpoints";
import { visitorFrom } from "@/lib/http/visitor";
import { readEmergencyProfileByTag } from "@/lib/services/emergency";

export const GET = route(emergencyEndpoints.scan, async ({ req, params, ctx, ip }) => readEmergencyProfileByTag(ctx, params.encryptedId, visitorFrom(req.headers, req.method, ip)));
export const { POST, PUT, PATCH, DELETE } = otherMethods(emergencyEndpoints.scan);
export { preflight as OPTIONS } from "@/lib/http";
