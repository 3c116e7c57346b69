import { otherMethods, route } from "@/lib/http";
import { emergencyEndpoints } from "@/lib/http/endpoints";
import { getEmergencyProfile, putEmergencyProfile } from "@/lib/services/emergency";

export const GET = route(emergencyEndpoints.get, async ({ ctx }) => getEmergencyProfile(ctx));
export const PUT = route(emergencyEndpoints.put, async ({ body, ctx }) => putEmergencyProfile(ctx, body));
export const { POST, PATCH, DELETE } = otherMethods(emergencyEndpoints.get, emergencyEndpoints.put);
export { preflight as OPTIONS } from "@/lib/http";
