import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { OTLPMetricExporter as JsonMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtobufMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { PeriodicExportingMetricReader, type IMetricReader } from "@opentelemetry/sdk-metrics";
import { NodeSDK } from "@opentelemetry/sdk-node";
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import { log } from "@/lib/log";
import { countSpansDropped, countSpansExported } from "@/lib/metrics/registry";
import { setRequestMetrics } from "./metrics";
import { BoundedSpanProcessor } from "./processor";
import { setTracing } from "./tracing";

/**
 * Registers the OpenTelemetry SDK (docs/operations.md#tracing): loaded by instrumentation.ts only when an
 * OTLP endpoint is configured, so without one nothing of it is ever imported. Everything is read from the
 * standard OTEL_* variables: the endpoint, headers, timeout and compression by the exporters themselves;
 * the protocol (http/protobuf, the default, or http/json) and the batch processor's bounds here.
 */

export type OtlpProtocol = "http/protobuf" | "http/json";

type Environment = Record<string, string | undefined>;

/** True when the variables ask for export: an OTLP endpoint (all signals or traces) and the SDK not disabled. */
export function telemetryConfigured(environment: Environment = process.env): boolean {
  if (environment.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  return Boolean(environment.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** The signal's protocol: OTEL_EXPORTER_OTLP_<SIGNAL>_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf. */
export function otlpProtocol(signal: "TRACES" | "METRICS", environment: Environment = process.env): OtlpProtocol {
  const value = (environment[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] ?? environment.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim() || "http/protobuf";
  if (value === "http/protobuf" || value === "http/json") return value;
  log.warn("telemetry: unsupported OTLP protocol, using http/protobuf", { signal, protocol: value });
  return "http/protobuf";
}

function positiveInteger(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}

interface Running {
  sdk: NodeSDK;
  processor: BoundedSpanProcessor;
}

const store = globalThis as { __tagServiceTelemetry?: Running };

/**
 * Starts the SDK once per process (later calls return the running one): a tracer provider whose spans go
 * through a bounded queue to the OTLP exporter, and, unless OTEL_METRICS_EXPORTER is `none`, a meter
 * provider exporting the request-duration histogram every OTEL_METRIC_EXPORT_INTERVAL ms. Returns
 * undefined, and does nothing, when telemetryConfigured() is false.
 */
export function startTelemetry(environment: Environment = process.env): Running | undefined {
  if (store.__tagServiceTelemetry) return store.__tagServiceTelemetry;
  if (!telemetryConfigured(environment)) return undefined;

  const tracesProtocol = otlpProtocol("TRACES", environment);
  const exporter: SpanExporter = tracesProtocol === "http/json" ? new JsonTraceExporter() : new ProtobufTraceExporter();
  const processor = new BoundedSpanProcessor(exporter, {
    maxQueueSize: positiveInteger(environment.OTEL_BSP_MAX_QUEUE_SIZE),
    maxExportBatchSize: positiveInteger(environment.OTEL_BSP_MAX_EXPORT_BATCH_SIZE),
    scheduledDelayMillis: positiveInteger(environment.OTEL_BSP_SCHEDULE_DELAY),
    exportTimeoutMillis: positiveInteger(environment.OTEL_BSP_EXPORT_TIMEOUT),
    onDropped: countSpansDropped,
    onExported: countSpansExported,
  });

  const metricReaders: IMetricReader[] = [];
  const metricsExporters = (environment.OTEL_METRICS_EXPORTER ?? "otlp").split(",").map((name) => name.trim());
  if (!metricsExporters.includes("none")) {
    const metricsProtocol = otlpProtocol("METRICS", environment);
    const interval = positiveInteger(environment.OTEL_METRIC_EXPORT_INTERVAL) ?? 60_000;
    metricReaders.push(
      new PeriodicExportingMetricReader({
        exporter: metricsProtocol === "http/json" ? new JsonMetricExporter() : new ProtobufMetricExporter(),
        exportIntervalMillis: interval,
        // The reader refuses a timeout longer than its interval.
        exportTimeoutMillis: Math.min(positiveInteger(environment.OTEL_METRIC_EXPORT_TIMEOUT) ?? 30_000, interval),
      }),
    );
  }

  const sdk = new NodeSDK({
    ...(environment.OTEL_SERVICE_NAME ? {} : { serviceName: "tag-service" }),
    spanProcessors: [processor],
    metricReaders,
    // Logs stay with lib/log (stdout); the SDK would otherwise start an OTLP log exporter of its own.
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  setTracing(true);
  if (metricReaders.length) setRequestMetrics(metrics.getMeter("tag-service"));
  store.__tagServiceTelemetry = { sdk, processor };
  log.info("telemetry: exporting over OTLP", { protocol: tracesProtocol, metrics: metricReaders.length > 0 });
  return store.__tagServiceTelemetry;
}

/** Exports what is queued and stops (process shutdown, tests): our spans stop and the API's globals are reset. */
export async function stopTelemetry(): Promise<void> {
  const running = store.__tagServiceTelemetry;
  if (!running) return;
  store.__tagServiceTelemetry = undefined;
  setTracing(false);
  setRequestMetrics(undefined);
  try {
    await running.sdk.shutdown();
  } finally {
    trace.disable();
    metrics.disable();
    propagation.disable();
    context.disable();
  }
}

/** Exports the spans queued now (tests). */
export async function flushTelemetry(): Promise<void> {
  await store.__tagServiceTelemetry?.processor.forceFlush();
}
