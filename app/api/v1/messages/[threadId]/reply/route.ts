import { created, otherMethods, route } from "@/lib/http";
import { messageEndpoints } from "@/lib/http/endpoints";
import { replyAsOwner } from "@/lib/services/messages";

export const POST = route(messageEndpoints.reply, async ({ params, body, ctx }) => created(await replyAsOwner(ctx, params.threadId, body)));
export const { GET, PUT, PATCH, DELETE } = otherMethods(messageEndpoints.reply);
export { preflight as OPTIONS } from "@/lib/http";
