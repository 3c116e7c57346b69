import { created, otherMethods, route } from "@/lib/http";
import { finderThreadEndpoints } from "@/lib/http/endpoints";
import { visitorFrom } from "@/lib/http/visitor";
import { shareLocationInThread } from "@/lib/services/messages";

export const POST = route(finderThreadEndpoints.shareLocation, async ({ req, params, body, ctx, ip }) =>
  created(await shareLocationInThread(ctx, params.token, body, visitorFrom(req.headers, req.method, ip))),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods(finderThreadEndpoints.shareLocation);
export { preflight as OPTIONS } from "@/lib/http";
