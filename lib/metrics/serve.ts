import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { errorResponse } from "@/lib/http/route";
import { NotFoundError, UnauthorizedError } from "@/lib/services/errors";
import { refreshScrapeGauges } from "./collect";
import { getMetrics } from "./registry";

/**
 * Whether an Authorization header carries `Bearer <token>`. Both sides are hashed first, so the
 * comparison takes the same time whatever the length or the first wrong character of the guess.
 */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
  const presented = createHash("sha256").update(match?.[1] ?? "").digest();
  const expected = createHash("sha256").update(token).digest();
  return timingSafeEqual(presented, expected) && match !== null;
}

/**
 * GET /api/metrics: the Prometheus text format for a scraper holding METRICS_TOKEN. Without the token
 * configured the route does not exist (404, as any unknown path); a missing or wrong bearer is 401.
 */
export async function serveMetrics(req: Request, token: string | undefined): Promise<Response> {
  const requestId = randomUUID();
  if (!token) return errorResponse(new NotFoundError(), requestId);
  if (!bearerMatches(req.headers.get("authorization"), token)) {
    const response = errorResponse(new UnauthorizedError("A valid metrics token is required."), requestId);
    response.headers.set("WWW-Authenticate", 'Bearer realm="metrics"');
    return response;
  }
  await refreshScrapeGauges();
  const { registry } = getMetrics();
  return new Response(await registry.metrics(), {
    status: 200,
    headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store", "X-Request-Id": requestId },
  });
}
