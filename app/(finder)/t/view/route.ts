import { withStampedParam } from "@/lib/http/incoming-requests";
import * as page from "../[encryptedId]/route";

/**
 * The finder's page (/t/:encryptedId) as a static route (docs/decisions/0054-static-scan-route.md): the
 * server's request hook sends a GET or HEAD of it here with the id stamped beside it. Reached any other way
 * (a request for /t/view itself), the id is "view", as the dynamic route would have it: no tag (404 page).
 */
export const GET = withStampedParam("encryptedId", page.GET);
export const POST = withStampedParam("encryptedId", page.POST);
