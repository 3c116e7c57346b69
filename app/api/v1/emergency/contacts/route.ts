import { otherMethods, route } from "@/lib/http";
import { emergencyEndpoints } from "@/lib/http/endpoints";
import { addEmergencyContact } from "@/lib/services/emergency";

export const POST = route(emergencyEndpoints.addContact, async ({ body, ctx }) => addEmergencyContact(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(emergencyEndpoints.addContact);
export { preflight as OPTIONS } from "@/lib/http";
