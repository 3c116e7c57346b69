import { otherMethods, route } from "@/lib/http";
import { systemEndpoints } from "@/lib/http/endpoints";
import { openApiRepresentation } from "@/lib/openapi";

/**
 * The document changes only with a deployment: its bytes and their hash are made once per process. A
 * client may keep it 5 minutes, then revalidates with If-None-Match (304, no body). Not compressed here:
 * Next drops a route handler's own Content-Encoding header on the way out (gzipping here sent raw gzip
 * bytes labelled as JSON); `next start` gzips it because next.config.ts sets its Content-Type (docs/api.md).
 */
export const GET = route(systemEndpoints.openapi, async ({ req }) => {
  const document = openApiRepresentation();
  const headers: Record<string, string> = { ETag: document.etag, "Cache-Control": "public, max-age=300" };
  if (matchesEtag(req.headers.get("if-none-match"), document.etag)) return new Response(null, { status: 304, headers });
  return new Response(document.json, { status: 200, headers: { ...headers, "Content-Type": "application/json" } });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(systemEndpoints.openapi);
export { preflight as OPTIONS } from "@/lib/http";

/** If-None-Match by weak comparison (a proxy's compressed copy may carry `W/`), or `*`. */
function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((raw) => {
    const tag = raw.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}
