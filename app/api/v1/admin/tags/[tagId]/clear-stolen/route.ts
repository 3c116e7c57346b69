import { otherMethods, route } from "@/lib/http";
import { vehicleEndpoints } from "@/lib/http/endpoints";
import { clearStolenFlag } from "@/lib/services/vehicles";

export const POST = route(vehicleEndpoints.adminClearStolen, async ({ params, body, ctx }) => clearStolenFlag(ctx, params.tagId, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(vehicleEndpoints.adminClearStolen);
export { preflight as OPTIONS } from "@/lib/http";
