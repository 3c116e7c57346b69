import { created, otherMethods, route } from "@/lib/http";
import { tagExtraEndpoints } from "@/lib/http/endpoints/tag-extras";
import { cancelTransfer, createTransfer } from "@/lib/services/tags";

export const POST = route(tagExtraEndpoints.createTransfer, async ({ params, body, ctx }) => created(await createTransfer(ctx, params.id, body)));
export const DELETE = route(tagExtraEndpoints.cancelTransfer, async ({ params, ctx }) => cancelTransfer(ctx, params.id));
export const { GET, PUT, PATCH } = otherMethods(tagExtraEndpoints.createTransfer, tagExtraEndpoints.cancelTransfer);
export { preflight as OPTIONS } from "@/lib/http";
