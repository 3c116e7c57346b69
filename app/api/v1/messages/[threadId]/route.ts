import { otherMethods, route } from "@/lib/http";
import { messageEndpoints } from "@/lib/http/endpoints";
import { getThread, setThreadStatus } from "@/lib/services/messages";

export const GET = route(messageEndpoints.get, async ({ params, ctx }) => getThread(ctx, params.threadId));
export const PATCH = route(messageEndpoints.setStatus, async ({ params, body, ctx }) => setThreadStatus(ctx, params.threadId, body.status));
export const { POST, PUT, DELETE } = otherMethods(messageEndpoints.get, messageEndpoints.setStatus);
export { preflight as OPTIONS } from "@/lib/http";
