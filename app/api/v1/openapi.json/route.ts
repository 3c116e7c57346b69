import { otherMethods, route } from "@/lib/http";
import { systemEndpoints } from "@/lib/http/endpoints";
import { openApiDocument } from "@/lib/openapi";

export const GET = route(systemEndpoints.openapi, async () => Response.json(openApiDocument()));
export const { POST, PUT, PATCH, DELETE } = otherMethods(systemEndpoints.openapi);
export { preflight as OPTIONS } from "@/lib/http";
