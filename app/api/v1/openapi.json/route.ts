import { otherMethods, route } from "@/lib/http";
import { systemEndpoints } from "@/lib/http/endpoints";
import { openApiRepresentation } from "@/lib/openapi";

/**
 * The document changes only with a deployment: its bytes, their gzip and their hash are made once per
 * process. A client may keep it 5 minutes, then revalidates with If-None-Match (304, no body); gzip when
 * Accept-Encoding allows it (docs/api.md).
 */
export const GET = route(systemEndpoints.openapi, async ({ req }) => {
  const document = openApiRepresentation();
  const gzip = acceptsGzip(req.headers.get("accept-encoding"));
  const etag = gzip ? document.gzipEtag : document.etag;
  const headers: Record<string, string> = { ETag: etag, "Cache-Control": "public, max-age=300", Vary: "Accept-Encoding" };
  if (matchesEtag(req.headers.get("if-none-match"), [document.etag, document.gzipEtag])) return new Response(null, { status: 304, headers });
  headers["Content-Type"] = "application/json";
  if (!gzip) return new Response(document.json, { status: 200, headers });
  headers["Content-Encoding"] = "gzip";
  return new Response(new Uint8Array(document.gzip), { status: 200, headers });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(systemEndpoints.openapi);
export { preflight as OPTIONS } from "@/lib/http";

/** gzip unless the client refuses it (`gzip;q=0`) or names only other codings. */
function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  for (const part of header.toLowerCase().split(",")) {
    const [coding, ...params] = part.trim().split(";");
    if (coding !== "gzip" && coding !== "*") continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** If-None-Match by weak comparison: either representation's tag (or `*`) means the client has it. */
function matchesEtag(header: string | null, etags: string[]): boolean {
  if (!header) return false;
  return header.split(",").some((raw) => {
    const tag = raw.trim().replace(/^W\//, "");
    return tag === "*" || etags.includes(tag);
  });
}
