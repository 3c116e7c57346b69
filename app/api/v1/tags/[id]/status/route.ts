import { otherMethods, route } from "@/lib/http";
import { tagEndpoints } from "@/lib/http/endpoints";
import { setTagStatus } from "@/lib/services/vehicles";

export const PATCH = route(tagEndpoints.setStatus, async ({ params, body, ctx }) => setTagStatus(ctx, params.id, body));
export const { GET, POST, PUT, DELETE } = otherMethods(tagEndpoints.setStatus);
export { preflight as OPTIONS } from "@/lib/http";
