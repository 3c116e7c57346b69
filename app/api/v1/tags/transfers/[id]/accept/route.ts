import { otherMethods, route } from "@/lib/http";
import { acceptTransfer } from "@/lib/services/tags";
import { transferEndpoints } from "@/lib/http/endpoints";

export const POST = route(transferEndpoints.acceptTransfer, async ({ params, ctx }) => acceptTransfer(ctx, params.id));
export const { GET, PUT, PATCH, DELETE } = otherMethods(transferEndpoints.acceptTransfer);
export { preflight as OPTIONS } from "@/lib/http";
