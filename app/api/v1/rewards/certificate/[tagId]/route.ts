import { otherMethods, route } from "@/lib/http";
import { rewardEndpoints } from "@/lib/http/endpoints";
import { certificateForTag } from "@/lib/services/rewards";

export const GET = route(rewardEndpoints.certificate, async ({ params, ctx }) => certificateForTag(ctx, params.tagId));
export const { POST, PUT, PATCH, DELETE } = otherMethods(rewardEndpoints.certificate);
export { preflight as OPTIONS } from "@/lib/http";
