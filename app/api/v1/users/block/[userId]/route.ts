import { otherMethods, route } from "@/lib/http";
import { blockEndpoints } from "@/lib/http/endpoints";
import { blockUser, unblockUser } from "@/lib/services/blocks";

export const POST = route(blockEndpoints.block, async ({ params, ctx }) => blockUser(ctx, params.userId));
export const DELETE = route(blockEndpoints.unblock, async ({ params, ctx }) => unblockUser(ctx, params.userId));
export const { GET, PUT, PATCH } = otherMethods(blockEndpoints.block, blockEndpoints.unblock);
export { preflight as OPTIONS } from "@/lib/http";
