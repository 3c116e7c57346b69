import type { RouteHandler } from "@/lib/http/route";
import { ROUTE_PARAM_HEADER } from "@/lib/http/incoming-requests";
import * as scan from "../[encryptedId]/route";

/**
 * GET /api/v1/scan/:encryptedId as a static route (docs/decisions/0054-static-scan-route.md): the server's
 * request hook sends a scan here with its id in ROUTE_PARAM_HEADER. Reached any other way (a client asking
 * for /api/v1/scan/view itself), the id is "view", as the dynamic route would have it: not a tag (404).
 */
const withStampedId =
  (handler: RouteHandler): RouteHandler =>
  (req) =>
    handler(req, { params: Promise.resolve({ encryptedId: req.headers.get(ROUTE_PARAM_HEADER) ?? "view" }) });

export const GET = withStampedId(scan.GET);
export const POST = withStampedId(scan.POST);
export const PUT = withStampedId(scan.PUT);
export const PATCH = withStampedId(scan.PATCH);
export const DELETE = withStampedId(scan.DELETE);
export { OPTIONS } from "../[encryptedId]/route";
