import { env } from "@/lib/env";

/**
 * For `npm run bench`'s scale-out only: this process's memory (process.memoryUsage(), in bytes), after a
 * full garbage collection when the process was started with --expose-gc, so the bench can tell what its
 * idle streams keep from garbage not yet collected. Off (404) unless the server was started with
 * BENCH_FLOOR=true, like the floor beside it.
 */
const NOT_FOUND = JSON.stringify({ success: false, error: { code: "NOT_FOUND", message: "Not found." } });
const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" };

export function GET(): Response {
  if (!env.BENCH_FLOOR) return new Response(NOT_FOUND, { status: 404, headers });
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return new Response(JSON.stringify({ success: true, data: { collected: Boolean(gc), ...process.memoryUsage() } }), { status: 200, headers });
}
