import { otherMethods, route } from "@/lib/http";
import { rewardEndpoints } from "@/lib/http/endpoints";
import { certificateById } from "@/lib/services/rewards";

export const GET = route(rewardEndpoints.certificateById, async ({ params, ctx }) => certificateById(ctx, params.certificateId));
export const { POST, PUT, PATCH, DELETE } = otherMethods(rewardEndpoints.certificateById);
export { preflight as OPTIONS } from "@/lib/http";
