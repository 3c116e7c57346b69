import { otherMethods, route } from "@/lib/http";
import { reportVehicleStolen } from "@/lib/services/vehicles";
import { vehicleEndpoints } from "@/lib/http/endpoints";

export const POST = route(vehicleEndpoints.reportStolen, async ({ params, body, ctx }) => reportVehicleStolen(ctx, params.tagId, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(vehicleEndpoints.reportStolen);
export { preflight as OPTIONS } from "@/lib/http";
