import { otherMethods, route } from "@/lib/http";
import { declineTransfer } from "@/lib/services/tags";
import { transferEndpoints } from "@/lib/http/endpoints";

export const POST = route(transferEndpoints.declineTransfer, async ({ params, ctx }) => declineTransfer(ctx, params.id));
export const { GET, PUT, PATCH, DELETE } = otherMethods(transferEndpoints.declineTransfer);
export { preflight as OPTIONS } from "@/lib/http";
