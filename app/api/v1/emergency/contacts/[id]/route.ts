import { otherMethods, route } from "@/lib/http";
import { emergencyEndpoints } from "@/lib/http/endpoints";
import { deleteEmergencyContact, updateEmergencyContact } from "@/lib/services/emergency";

export const PATCH = route(emergencyEndpoints.updateContact, async ({ params, body, ctx }) => updateEmergencyContact(ctx, params.id, body));
export const DELETE = route(emergencyEndpoints.deleteContact, async ({ params, ctx }) => deleteEmergencyContact(ctx, params.id));
export const { GET, POST, PUT } = otherMethods(emergencyEndpoints.updateContact, emergencyEndpoints.deleteContact);
export { preflight as OPTIONS } from "@/lib/http";
