import { env } from "@/lib/env";

/**
 * The framework floor of a route with a path parameter, for `npm run bench`'s comparison: the same empty
 * handler as /api/bench-floor, on a dynamic route as the scan's (`/api/v1/scan/[encryptedId]`) is, so the
 * bench can show what Next charges for matching a dynamic route and handing over its parameters before any
 * code of ours runs. Off (404) unless the server was started with BENCH_FLOOR=true.
 */
const NOT_FOUND = JSON.stringify({ success: false, error: { code: "NOT_FOUND", message: "Not found." } });
const FLOOR = JSON.stringify({ success: true });

export function GET(): Response {
  if (!env.BENCH_FLOOR) return new Response(NOT_FOUND, { status: 404, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
  return new Response(FLOOR, { status: 200, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
}
