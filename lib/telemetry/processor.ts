import { TraceFlags } from "@opentelemetry/api";
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace";

/**
 * A batch span processor that never lets the exporter reach a request: `onEnd` only pushes onto a bounded
 * queue (or drops, counted, when it is full) and returns; one export at a time runs from a timer, cut off
 * at `exportTimeoutMillis`. A collector that is down, refusing or a black hole therefore costs a request
 * nothing, and the spans that could not be kept are counted by reason (lib/metrics: otel_spans_dropped_total)
 * instead of only logged, as the SDK's BatchSpanProcessor does.
 */

export type DropReason = "queue_full" | "export_failed" | "export_timeout";

export interface BoundedSpanProcessorOptions {
  /** Spans held at most (OTEL_BSP_MAX_QUEUE_SIZE, default 2048); past it new spans are dropped. */
  maxQueueSize?: number;
  /** Spans per export call (OTEL_BSP_MAX_EXPORT_BATCH_SIZE, default 512). */
  maxExportBatchSize?: number;
  /** How long a span may wait for a batch to fill (OTEL_BSP_SCHEDULE_DELAY, default 5000 ms). */
  scheduledDelayMillis?: number;
  /** An export still running after this is given up and its spans counted as dropped (OTEL_BSP_EXPORT_TIMEOUT, default 30000 ms). */
  exportTimeoutMillis?: number;
  onDropped?: (count: number, reason: DropReason) => void;
  onExported?: (count: number) => void;
}

/**
 * Next.js puts the raw request target on its spans (`http.target`: path and query), where ids, tag codes and
 * one-time tokens (`?token=`) travel. It is replaced by the route template when the span has one, else
 * left out: traces say which page or operation, never whose.
 */
export function scrubRawPath(span: ReadableSpan): void {
  const attributes = span.attributes as Record<string, unknown>;
  if (!("http.target" in attributes)) return;
  const route = attributes["http.route"] ?? attributes["next.route"];
  if (typeof route === "string") attributes["http.target"] = route;
  else delete attributes["http.target"];
}

export class BoundedSpanProcessor implements SpanProcessor {
  private queue: ReadableSpan[] = [];
  private exporting: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private readonly maxQueueSize: number;
  private readonly maxExportBatchSize: number;
  private readonly scheduledDelayMillis: number;
  private readonly exportTimeoutMillis: number;

  constructor(
    private readonly exporter: SpanExporter,
    private readonly options: BoundedSpanProcessorOptions = {},
  ) {
    this.maxQueueSize = Math.max(1, options.maxQueueSize ?? 2048);
    this.maxExportBatchSize = Math.max(1, Math.min(options.maxExportBatchSize ?? 512, this.maxQueueSize));
    this.scheduledDelayMillis = Math.max(0, options.scheduledDelayMillis ?? 5_000);
    this.exportTimeoutMillis = Math.max(1, options.exportTimeoutMillis ?? 30_000);
  }

  /** Spans waiting for an export (tests, diagnostics). */
  get queued(): number {
    return this.queue.length;
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopped || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.queue.length >= this.maxQueueSize) {
      this.options.onDropped?.(1, "queue_full");
      return;
    }
    scrubRawPath(span);
    this.queue.push(span);
    if (this.queue.length >= this.maxExportBatchSize) this.drain();
    else this.schedule();
  }

  async forceFlush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.exporting || this.queue.length) {
      if (this.exporting) await this.exporting;
      else this.drain();
    }
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    await this.forceFlush();
    this.stopped = true;
    await this.exporter.shutdown();
  }

  private schedule(): void {
    if (this.timer || this.exporting) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, this.scheduledDelayMillis);
    // A pending export never keeps the process alive.
    this.timer.unref?.();
  }

  /** Starts the export loop unless one runs: batch after batch until the queue is empty. */
  private drain(): void {
    if (this.exporting) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.exporting = (async () => {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.maxExportBatchSize);
        await this.exportBatch(batch);
      }
    })().finally(() => {
      this.exporting = undefined;
      if (this.queue.length) this.schedule();
    });
  }

  private async exportBatch(batch: ReadableSpan[]): Promise<void> {
    // Resource attributes a detector fills in asynchronously must be there before the first export.
    const pending = batch.filter((span) => span.resource.asyncAttributesPending).map((span) => span.resource.waitForAsyncAttributes?.());
    if (pending.length) await Promise.all(pending);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await new Promise<ExportResult | "timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), this.exportTimeoutMillis);
      timer.unref?.();
      try {
        this.exporter.export(batch, resolve);
      } catch (error) {
        resolve({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) });
      }
    });
    clearTimeout(timer);
    if (outcome === "timeout") this.options.onDropped?.(batch.length, "export_timeout");
    else if (outcome.code !== ExportResultCode.SUCCESS) this.options.onDropped?.(batch.length, "export_failed");
    else this.options.onExported?.(batch.length);
  }
}
