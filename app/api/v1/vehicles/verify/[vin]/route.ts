import { otherMethods, route } from "@/lib/http";
import { verifyVin } from "@/lib/services/vehicles";
import { vehicleEndpoints } from "@/lib/http/endpoints";

export const GET = route(vehicleEndpoints.verifyVin, async ({ params, ctx }) => verifyVin(ctx, params.vin));
export const { POST, PUT, PATCH, DELETE } = otherMethods(vehicleEndpoints.verifyVin);
export { preflight as OPTIONS } from "@/lib/http";
