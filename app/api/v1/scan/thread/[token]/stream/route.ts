import { otherMethods, route } from "@/lib/http";
import { finderThreadEndpoints } from "@/lib/http/endpoints";
import { streamFinderThread } from "@/lib/services/messages";

export const GET = route(finderThreadEndpoints.stream, async ({ req, params, ctx }) => streamFinderThread(ctx, params.token, { signal: req.signal }));
export const { POST, PUT, PATCH, DELETE } = otherMethods(finderThreadEndpoints.stream);
export { preflight as OPTIONS } from "@/lib/http";
