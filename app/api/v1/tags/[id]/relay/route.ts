import { otherMethods, route } from "@/lib/http";
import { relayEndpoints } from "@/lib/http/endpoints";
import { getRelaySettings, updateRelaySettings } from "@/lib/services/relay";

export const GET = route(relayEndpoints.getTagRelay, async ({ params, ctx }) => getRelaySettings(ctx, params.id));
export const PATCH = route(relayEndpoints.updateTagRelay, async ({ params, body, ctx }) => updateRelaySettings(ctx, params.id, body));
export const { POST, PUT, DELETE } = otherMethods(relayEndpoints.getTagRelay, relayEndpoints.updateTagRelay);
export { preflight as OPTIONS } from "@/lib/http";
