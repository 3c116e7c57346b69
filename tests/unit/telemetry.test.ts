import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import { AlwaysOffSampler, TracerProvider, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { BoundedSpanProcessor, scrubRawPath, type DropReason } from "@/lib/telemetry/processor";
import { otlpProtocol, telemetryConfigured } from "@/lib/telemetry/sdk";
import { takeTraceContext, TRACE_DATA_KEY, traceJob, traceStatement, withTraceContext } from "@/lib/telemetry/tracing";
import { telemetryUserHash } from "@/lib/telemetry/user";

/** An exporter the test drives: each export call waits until the test answers it (or never). */
class HeldExporter implements SpanExporter {
  readonly calls: Array<{ spans: ReadableSpan[]; answer: (result: ExportResult) => void }> = [];
  constructor(private readonly auto?: ExportResultCode) {}
  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.calls.push({ spans, answer: resultCallback });
    if (this.auto !== undefined) resultCallback({ code: this.auto });
  }
  async shutdown(): Promise<void> {}
}

function setup(exporter: SpanExporter, options: ConstructorParameters<typeof BoundedSpanProcessor>[1] = {}, sampled = true) {
  const counts: Record<DropReason | "exported", number> = { queue_full: 0, export_failed: 0, export_timeout: 0, exported: 0 };
  const processor = new BoundedSpanProcessor(exporter, {
    ...options,
    onDropped: (count, reason) => (counts[reason] += count),
    onExported: (count) => (counts.exported += count),
  });
  const provider = new TracerProvider({ spanProcessors: [processor], ...(sampled ? {} : { sampler: new AlwaysOffSampler() }) });
  const tracer = provider.getTracer("test");
  const endSpans = (n: number) => {
    for (let i = 0; i < n; i++) tracer.startSpan(`span ${i}`).end();
  };
  return { processor, counts, endSpans };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("BoundedSpanProcessor", () => {
  it("holds at most maxQueueSize spans while an export hangs and counts the rest as dropped", () => {
    const exporter = new HeldExporter();
    const { processor, counts, endSpans } = setup(exporter, { maxQueueSize: 4, maxExportBatchSize: 2, scheduledDelayMillis: 1_000, exportTimeoutMillis: 60_000 });
    const started = performance.now();
    endSpans(20);
    // Ending spans never waits for the exporter.
    expect(performance.now() - started).toBeLessThan(100);
    // The first full batch went to the exporter at once; four wait; fourteen were dropped.
    expect(exporter.calls.map((call) => call.spans.length)).toEqual([2]);
    expect(processor.queued).toBe(4);
    expect(counts.queue_full).toBe(14);
  });

  it("gives up an export at exportTimeoutMillis, counts its spans, and goes on with the next batch", async () => {
    const exporter = new HeldExporter();
    const { counts, endSpans } = setup(exporter, { maxQueueSize: 10, maxExportBatchSize: 2, scheduledDelayMillis: 0, exportTimeoutMillis: 30 });
    endSpans(4);
    await sleep(120);
    expect(counts.export_timeout).toBe(4);
    expect(exporter.calls.map((call) => call.spans.length)).toEqual([2, 2]);
  });

  it("counts the spans of a refused export", async () => {
    const { processor, counts, endSpans } = setup(new HeldExporter(ExportResultCode.FAILED), { maxExportBatchSize: 3 });
    endSpans(5);
    await processor.forceFlush();
    expect(counts).toMatchObject({ export_failed: 5, exported: 0, queue_full: 0 });
  });

  it("exports in batches of maxExportBatchSize after scheduledDelayMillis, and everything on forceFlush", async () => {
    const exporter = new HeldExporter(ExportResultCode.SUCCESS);
    const { processor, counts, endSpans } = setup(exporter, { maxExportBatchSize: 3, scheduledDelayMillis: 20 });
    endSpans(2);
    expect(exporter.calls).toHaveLength(0);
    await sleep(80);
    expect(exporter.calls.map((call) => call.spans.length)).toEqual([2]);
    endSpans(7);
    await processor.forceFlush();
    expect(exporter.calls.map((call) => call.spans.length)).toEqual([2, 3, 3, 1]);
    expect(counts.exported).toBe(9);
    expect(processor.queued).toBe(0);
  });

  it("ignores spans that are not sampled", async () => {
    const exporter = new HeldExporter(ExportResultCode.SUCCESS);
    const { processor, endSpans } = setup(exporter, {}, false);
    endSpans(3);
    await processor.forceFlush();
    expect(exporter.calls).toHaveLength(0);
  });
});

describe("configuration from OTEL_* variables", () => {
  it("exports only with an endpoint and without OTEL_SDK_DISABLED", () => {
    expect(telemetryConfigured({})).toBe(false);
    expect(telemetryConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toBe(false);
    expect(telemetryConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(telemetryConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(true);
    expect(telemetryConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" })).toBe(false);
  });

  it("takes the signal's protocol, else the general one, else http/protobuf; grpc is not supported", () => {
    expect(otlpProtocol("TRACES", {})).toBe("http/protobuf");
    expect(otlpProtocol("TRACES", { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toBe("http/json");
    expect(otlpProtocol("TRACES", { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf" })).toBe("http/protobuf");
    expect(otlpProtocol("METRICS", { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json" })).toBe("http/protobuf");
    expect(otlpProtocol("TRACES", { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toBe("http/protobuf");
  });
});

describe("without an SDK", () => {
  it("adds no trace context to job data and runs wrapped work as it is", async () => {
    const data = { key: "k" };
    expect(withTraceContext("test.job", data)).toBe(data);
    expect(await traceStatement("select $1", "postgresql", async () => 42)).toBe(42);
    expect(await traceJob({ name: "test.job", id: "1", data: { key: "k", [TRACE_DATA_KEY]: { traceparent: "x" } } }, async (seen) => seen)).toEqual({ key: "k" });
    expect(takeTraceContext([1, 2]).data).toEqual([1, 2]);
  });
});

describe("telemetryUserHash", () => {
  it("is stable, keyed and not the id", () => {
    const id = "3f1c2a9e-0000-4000-8000-000000000001";
    expect(telemetryUserHash(id)).toBe(telemetryUserHash(id));
    expect(telemetryUserHash(id)).toMatch(/^[0-9a-f]{32}$/);
    expect(telemetryUserHash(id)).not.toContain(id);
    expect(telemetryUserHash(id)).not.toBe(telemetryUserHash("3f1c2a9e-0000-4000-8000-000000000002"));
  });
});

describe("scrubRawPath", () => {
  it("replaces Next's raw request target by the route template, or leaves it out", () => {
    const span = (attributes: Record<string, unknown>) => ({ attributes }) as unknown as ReadableSpan;
    const withRoute = span({ "http.target": "/t/AbC123?token=secret", "http.route": "/t/[encryptedId]", "next.route": "/t/[encryptedId]" });
    scrubRawPath(withRoute);
    expect(withRoute.attributes["http.target"]).toBe("/t/[encryptedId]");
    const withoutRoute = span({ "http.target": "/verify-email?token=secret", "http.method": "GET" });
    scrubRawPath(withoutRoute);
    expect(withoutRoute.attributes).toEqual({ "http.method": "GET" });
  });
});
