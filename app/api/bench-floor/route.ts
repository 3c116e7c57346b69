import { env } from "@/lib/env";

/**
 * The framework floor for `npm run bench`: an empty route handler in the same build (no kernel, no
 * database, no rate limit), so the bench can show what Next itself costs per request beside our routes.
 * Off (404) unless the server was started with BENCH_FLOOR=true.
 */
const NOT_FOUND = JSON.stringify({ success: false, error: { code: "NOT_FOUND", message: "Not found." } });
const FLOOR = JSON.stringify({ success: true });

export function GET(): Response {
  if (!env.BENCH_FLOOR) return new Response(NOT_FOUND, { status: 404, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
  return new Response(FLOOR, { status: 200, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
}
