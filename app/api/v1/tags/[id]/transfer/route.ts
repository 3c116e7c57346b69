import { created, otherMethods, route } from "@/lib/http";
import { cancelTransfer, createTransfer } from "@/lib/services/tags";
import { transferEndpoints } from "@/lib/http/endpoints";

export const POST = route(transferEndpoints.createTransfer, async ({ params, body, ctx }) => created(await createTransfer(ctx, params.id, body)));
export const DELETE = route(transferEndpoints.cancelTransfer, async ({ params, ctx }) => cancelTransfer(ctx, params.id));
export const { GET, PUT, PATCH } = otherMethods(transferEndpoints.createTransfer, transferEndpoints.cancelTransfer);
export { preflight as OPTIONS } from "@/lib/http";
