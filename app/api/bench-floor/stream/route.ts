import { env } from "@/lib/env";

/**
 * The framework floor of a live stream, for `npm run bench`'s scale-out: an event stream from a bare route
 * handler (no kernel, no database, no hub), sending the retry line and then a ping every 25 s as ours does,
 * so the bench can show what Next itself keeps per open stream beside what ours keeps. Off (404) unless
 * the server was started with BENCH_FLOOR=true.
 */
const NOT_FOUND = JSON.stringify({ success: false, error: { code: "NOT_FOUND", message: "Not found." } });
const PING_INTERVAL_MS = 25_000;

export function GET(request: Request): Response {
  if (!env.BENCH_FLOOR) return new Response(NOT_FOUND, { status: 404, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
  const encoder = new TextEncoder();
  let ping: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode("retry: 3000\n\n"));
      ping = setInterval(() => controller.enqueue(encoder.encode(": ping\n\n")), PING_INTERVAL_MS);
      request.signal.addEventListener("abort", () => {
        clearInterval(ping);
        try {
          controller.close();
        } catch {
          // already closed by the reader
        }
      });
    },
    cancel() {
      clearInterval(ping);
    },
  });
  return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform" } });
}
