import { withStampedParam } from "@/lib/http/incoming-requests";
import * as scan from "../[encryptedId]/route";

/**
 * GET /api/v1/scan/:encryptedId as a static route (docs/decisions/0054-static-scan-route.md): the server's
 * request hook sends a scan here with its id stamped beside it. Reached any other way (a client asking for
 * /api/v1/scan/view itself), the id is "view", as the dynamic route would have it: not a tag (404).
 */
export const GET = withStampedParam("encryptedId", scan.GET);
export const POST = withStampedParam("encryptedId", scan.POST);
export const PUT = withStampedParam("encryptedId", scan.PUT);
export const PATCH = withStampedParam("encryptedId", scan.PATCH);
export const DELETE = withStampedParam("encryptedId", scan.DELETE);
export { OPTIONS } from "../[encryptedId]/route";
