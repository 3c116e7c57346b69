import { otherMethods, route } from "@/lib/http";
import { messageEndpoints } from "@/lib/http/endpoints";
import { markThreadRead } from "@/lib/services/messages";

export const PATCH = route(messageEndpoints.markRead, async ({ params, ctx }) => markThreadRead(ctx, params.threadId));
export const { GET, POST, PUT, DELETE } = otherMethods(messageEndpoints.markRead);
export { preflight as OPTIONS } from "@/lib/http";
