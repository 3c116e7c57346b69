import { env } from "@/lib/env";
import { serveMetrics } from "@/lib/metrics/serve";

// Read per scrape: never prerendered or cached.
export const dynamic = "force-dynamic";

/** The Prometheus endpoint (docs/operations.md#metrics): 404 unless METRICS_TOKEN is set, then bearer-only. */
export function GET(req: Request): Promise<Response> {
  return serveMetrics(req, env.METRICS_TOKEN);
}
