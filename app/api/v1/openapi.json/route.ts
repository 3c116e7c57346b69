import { route } from "@/lib/http";
import { systemEndpoints } from "@/lib/http/endpoints";
import { openApiDocument } from "@/lib/openapi";

export const GET = route(systemEndpoints.openapi, async () => Response.json(openApiDocument()));
export { preflight as OPTIONS } from "@/lib/http";
