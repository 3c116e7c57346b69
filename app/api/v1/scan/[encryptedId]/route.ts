import { otherMethods, route } from "@/lib/http";
import { scanEndpoints } from "@/lib/http/endpoints";
import { visitorFrom } from "@/lib/http/visitor";
import { scanTag } from "@/lib/services/finder";

// Next answers HEAD with this GET handler (req.method stays HEAD): the scan is recorded as PREFETCH and
// the answer carries the headers without a body.
export const GET = route(scanEndpoints.scan, async ({ req, params, ctx, ip }) => {
  const view = await scanTag(ctx, params.encryptedId, visitorFrom(req.headers, req.method, ip));
  return req.method === "HEAD" ? new Response(null, { status: 200, headers: { "Content-Type": "application/json" } }) : view;
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(scanEndpoints.scan);
export { preflight as OPTIONS } from "@/lib/http";
