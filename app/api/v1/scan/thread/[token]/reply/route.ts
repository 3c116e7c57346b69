import { created, otherMethods, route } from "@/lib/http";
import { finderThreadEndpoints } from "@/lib/http/endpoints";
import { replyAsFinder } from "@/lib/services/messages";

export const POST = route(finderThreadEndpoints.reply, async ({ params, body, ctx }) => created(await replyAsFinder(ctx, params.token, body)));
export const { GET, PUT, PATCH, DELETE } = otherMethods(finderThreadEndpoints.reply);
export { preflight as OPTIONS } from "@/lib/http";
