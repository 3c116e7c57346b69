import { otherMethods, route } from "@/lib/http";
import { relayEndpoints } from "@/lib/http/endpoints";
import { regenerateRelayPin } from "@/lib/services/relay";

export const POST = route(relayEndpoints.regenerateRelayPin, async ({ params, ctx }) => regenerateRelayPin(ctx, params.id));
export const { GET, PUT, PATCH, DELETE } = otherMethods(relayEndpoints.regenerateRelayPin);
export { preflight as OPTIONS } from "@/lib/http";
