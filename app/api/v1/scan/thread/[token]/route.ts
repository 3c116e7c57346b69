import { otherMethods, route } from "@/lib/http";
import { finderThreadEndpoints } from "@/lib/http/endpoints";
import { getFinderThread } from "@/lib/services/messages";

export const GET = route(finderThreadEndpoints.thread, async ({ params, ctx }) => getFinderThread(ctx, params.token));
export const { POST, PUT, PATCH, DELETE } = otherMethods(finderThreadEndpoints.thread);
export { preflight as OPTIONS } from "@/lib/http";
