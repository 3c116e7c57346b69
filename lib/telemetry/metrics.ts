import type { Histogram, Meter } from "@opentelemetry/api";

/**
 * The OTLP side of the request metrics: the same observation prom-client's tagsvc_http_request_duration_seconds
 * records, as the semantic-convention histogram `http.server.request.duration` (seconds, by route template,
 * method and status), exported by the SDK's meter provider. Undefined, and free, while no SDK runs.
 */

const store = globalThis as { __tagServiceOtelRequestDuration?: Histogram; __tagServiceOtelJobDuration?: Histogram };

/** Called by lib/telemetry/sdk.ts with its meter at start, and with undefined at shutdown. */
export function setRequestMetrics(meter: Meter | undefined): void {
  store.__tagServiceOtelRequestDuration = meter?.createHistogram("http.server.request.duration", {
    unit: "s",
    description: "API requests through route(): time to the response head",
    advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] },
  });
  store.__tagServiceOtelJobDuration = meter?.createHistogram("messaging.process.duration", {
    unit: "s",
    description: "Job attempts run by this instance (tagsvc_job_duration_seconds' twin)",
    advice: { explicitBucketBoundaries: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] },
  });
}

/** One job attempt, by queue and outcome (called with prom-client's observation, lib/metrics/registry.ts). */
export function recordJobDuration(queue: string, outcome: string, seconds: number): void {
  store.__tagServiceOtelJobDuration?.record(seconds, { "messaging.system": "pg-boss", "messaging.destination.name": queue, "job.outcome": outcome });
}

export function recordRequestDuration(route: string, method: string, status: number, seconds: number): void {
  store.__tagServiceOtelRequestDuration?.record(seconds, { "http.route": route, "http.request.method": method, "http.response.status_code": status });
}
