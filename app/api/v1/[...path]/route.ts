import { route } from "@/lib/http";
import { systemEndpoints } from "@/lib/http/endpoints";
import { NotFoundError } from "@/lib/services/errors";

// Any /api/v1 path no route handles: the 404 envelope, with the usual headers and rate limit.
const unknownPath = route(systemEndpoints.unknownPath, async () => {
  throw new NotFoundError("No API endpoint exists at this path.");
});

export { unknownPath as GET, unknownPath as POST, unknownPath as PUT, unknownPath as PATCH, unknownPath as DELETE, unknownPath as HEAD };
export { preflight as OPTIONS } from "@/lib/http";
