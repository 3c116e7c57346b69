import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";

/**
 * The spans the service makes itself (docs/operations.md#tracing). Everything here is behind
 * `tracingActive()`, one property read: with no OTLP endpoint configured the SDK is never loaded, no span
 * object is made and the wrapped work runs as it would without them. The state lives on globalThis, like
 * the database handle and the metrics, so Next's separate bundles (instrumentation, route handlers, pages)
 * see the one SDK instrumentation.ts registered.
 */

interface TracingState {
  tracer?: Tracer;
}

const store = globalThis as { __tagServiceTracing?: TracingState };
const state: TracingState = (store.__tagServiceTracing ??= {});

export const TRACER_NAME = "tag-service";
/** db.query.text longer than this is cut (a bulk insert's VALUES list repeats its placeholders). */
export const STATEMENT_TEXT_LIMIT = 2_000;

/** Called by lib/telemetry/sdk.ts once its tracer provider is registered, and with `undefined` at shutdown. */
export function setTracing(active: boolean): void {
  state.tracer = active ? trace.getTracer(TRACER_NAME) : undefined;
}

/** True while an SDK exports our spans. */
export function tracingActive(): boolean {
  return state.tracer !== undefined;
}

function tracer(): Tracer | undefined {
  return state.tracer;
}

/** Ends `span` with the outcome of `work`: an exception recorded and status ERROR when it throws. */
async function endWith<T>(span: Span, work: () => Promise<T>, onResult?: (value: T) => void): Promise<T> {
  try {
    const value = await work();
    onResult?.(value);
    return value;
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** Runs `work` in a new span, child of the active one; without tracing, just runs it. */
export function inSpan<T>(name: string, kind: SpanKind, attributes: Attributes, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  const active = tracer();
  if (!active) return work(undefined);
  return active.startActiveSpan(name, { kind, attributes }, (span) => endWith(span, () => work(span)));
}

// ---------------------------------------------------------------------------------------------------------
// API requests (lib/http/route.ts)

/**
 * A server span for one API request, named by the route template (`GET /api/v1/tags/{id}`). Its parent is
 * the span Next.js opened for the request when there is one, else the caller's `traceparent` header.
 * Undefined without tracing.
 */
export function startRequestSpan(route: string, method: string, headers: Headers): { span: Span; context: Context } | undefined {
  const active = tracer();
  if (!active) return undefined;
  const parent = trace.getSpan(context.active()) ? context.active() : propagation.extract(ROOT_CONTEXT, headers, headersGetter);
  const span = active.startSpan(`${method} ${route}`, { kind: SpanKind.SERVER, attributes: { "http.request.method": method, "http.route": route } }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

const headersGetter = {
  keys: (carrier: Headers) => [...carrier.keys()],
  get: (carrier: Headers, key: string) => carrier.get(key) ?? undefined,
};

/** Runs `work` with `span` as the active span (its database statements and jobs become its children). */
export function withRequestSpan<T>(request: { context: Context }, work: () => Promise<T>): Promise<T> {
  return context.with(request.context, work);
}

/** The request's outcome on its span: status (ERROR from 500 up), request id, and the caller's hashed user id. */
export function endRequestSpan(span: Span, outcome: { status: number; requestId: string; userHash?: string }): void {
  span.setAttribute("http.response.status_code", outcome.status);
  span.setAttribute("http.request.id", outcome.requestId);
  if (outcome.userHash) span.setAttribute("user.hash", outcome.userHash);
  if (outcome.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * Marks the span Next.js opened for a page render with the request id and the signed-in user's hash
 * (Next names it by the route template and records the status itself). Nothing without tracing.
 */
export function annotateActiveSpan(attributes: Attributes): void {
  if (!tracer()) return;
  trace.getActiveSpan()?.setAttributes(attributes);
}

// ---------------------------------------------------------------------------------------------------------
// Database statements (db/availability.ts, lib/telemetry/pglite.ts)

/** The statement's first keyword (SELECT, INSERT, WITH …), the span's name. */
function operationOf(text: string): string {
  const match = /^\s*(?:\/\*[\s\S]*?\*\/\s*)?([A-Za-z]+)/.exec(text);
  return match ? match[1]!.toUpperCase() : "SQL";
}

/**
 * Runs one statement in a client span: its text (always with $n placeholders; parameter values are never
 * recorded) and, by the span's own start and end, its duration. Only inside a request, page or job's span:
 * statements of no operation (migrations at start, the metrics scrape's read) would each be a trace of
 * their own. Without tracing, just runs it.
 */
export function traceStatement<T>(text: string, system: "postgresql" | "pglite", run: () => Promise<T>): Promise<T> {
  const active = tracer();
  if (!active || !trace.getSpan(context.active())) return run();
  const attributes: Attributes = {
    "db.system.name": "postgresql",
    "db.query.text": text.length > STATEMENT_TEXT_LIMIT ? `${text.slice(0, STATEMENT_TEXT_LIMIT)}…` : text,
    "db.operation.name": operationOf(text),
  };
  if (system === "pglite") attributes["db.client.name"] = "pglite";
  return active.startActiveSpan(operationOf(text), { kind: SpanKind.CLIENT, attributes }, (span) => endWith(span, run));
}

// ---------------------------------------------------------------------------------------------------------
// Outgoing calls (Resend, Stripe, Twilio, push)

/**
 * A client span around one call to a provider: `peer` is its name (resend, stripe, twilio, push). A call
 * that throws is an error; so is an answer `failure` describes (SDKs that report errors as values).
 */
export function traceOutgoing<T>(peer: string, operation: string, run: () => Promise<T>, attributes: Attributes = {}, failure?: (value: T) => string | undefined): Promise<T> {
  const active = tracer();
  if (!active) return run();
  return active.startActiveSpan(`${peer} ${operation}`, { kind: SpanKind.CLIENT, attributes: { "peer.service": peer, "rpc.method": operation, ...attributes } }, (span) =>
    endWith(span, run, (value) => {
      const message = failure?.(value);
      if (message !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message });
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Jobs (lib/jobs/enqueue.ts, lib/jobs/workers.ts)

/** Where an enqueued job's data carries the enqueuing trace (W3C traceparent / tracestate). */
export const TRACE_DATA_KEY = "_trace";

type TraceCarrier = Record<string, string>;

/**
 * The data to store for jobs enqueued now: with tracing, copies with the active trace context under
 * TRACE_DATA_KEY, for which one producer span "enqueue <name>" is made (one for a bulk enqueue too), so
 * each job's span is the child of the request's enqueue; without tracing, or for data that is not a plain
 * object, the data itself.
 */
export function withTraceContexts<D>(jobName: string, data: readonly D[]): D[] {
  const active = tracer();
  if (!active) return [...data];
  const attributes: Attributes = { "messaging.system": "pg-boss", "messaging.destination.name": jobName, "messaging.operation.type": "send" };
  if (data.length > 1) attributes["messaging.batch.message_count"] = data.length;
  const span = active.startSpan(`enqueue ${jobName}`, { kind: SpanKind.PRODUCER, attributes });
  const carrier: TraceCarrier = {};
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  span.end();
  return data.map((item) => (item && typeof item === "object" && !Array.isArray(item) ? ({ ...item, [TRACE_DATA_KEY]: carrier } as D) : item));
}

/** withTraceContexts for one job. */
export function withTraceContext(jobName: string, data: unknown): unknown {
  return tracer() ? withTraceContexts(jobName, [data])[0] : data;
}

/** A job's data without the trace context, and that context (ROOT when it carries none). */
export function takeTraceContext(data: unknown): { data: unknown; parent: Context } {
  if (!data || typeof data !== "object" || Array.isArray(data) || !(TRACE_DATA_KEY in data)) return { data, parent: ROOT_CONTEXT };
  const { [TRACE_DATA_KEY]: carrier, ...rest } = data as Record<string, unknown>;
  const parent = carrier && typeof carrier === "object" ? propagation.extract(ROOT_CONTEXT, carrier as TraceCarrier) : ROOT_CONTEXT;
  return { data: rest, parent };
}

export type JobOutcome = "completed" | "failed";

/**
 * Runs one attempt of a job in a consumer span: the job's name, id and attempt (1 for the first run),
 * and its outcome. Its parent is the trace the job's data carries (the request that enqueued it). The
 * trace context is taken out of the data either way, so a handler never sees it.
 */
export function traceJob<T>(job: { name: string; id: string; data: unknown; retryCount?: number }, run: (data: unknown) => Promise<T>): Promise<T> {
  const { data, parent } = takeTraceContext(job.data);
  const active = tracer();
  if (!active) return run(data);
  const attributes: Attributes = {
    "messaging.system": "pg-boss",
    "messaging.destination.name": job.name,
    "messaging.operation.type": "process",
    "messaging.message.id": job.id,
    "job.name": job.name,
  };
  if (job.retryCount !== undefined) attributes["job.attempt"] = job.retryCount + 1;
  const span = active.startSpan(`job ${job.name}`, { kind: SpanKind.CONSUMER, attributes }, parent);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      const value = await run(data);
      span.setAttribute("job.outcome", "completed" satisfies JobOutcome);
      return value;
    } catch (error) {
      span.setAttribute("job.outcome", "failed" satisfies JobOutcome);
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

export { SpanKind };
