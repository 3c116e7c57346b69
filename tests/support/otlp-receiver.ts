import { createServer, type Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * An OTLP/HTTP collector in the test process: accepts POST /v1/traces and /v1/metrics in both encodings the
 * SDK sends (application/json and application/x-protobuf), and keeps the spans in one shape for both.
 * The protobuf side reads the wire format directly (the few fields of ExportTraceServiceRequest a test
 * checks), so a test does not need the exporter's own code to check what the exporter sent.
 */

export type AttributeValue = string | number | boolean;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** "" for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  attributes: Record<string, AttributeValue>;
  resource: Record<string, AttributeValue>;
}

export interface ReceivedRequest {
  path: string;
  contentType: string;
  bytes: number;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  requests: ReceivedRequest[];
  /** Metric names received on /v1/metrics (JSON only). */
  metricNames: Set<string>;
  /** Resolves when a span matching `predicate` has arrived (or rejects after `timeoutMs`). */
  waitForSpan(predicate: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

// --- OTLP/JSON ----------------------------------------------------------------------------------------

interface JsonAnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface JsonKeyValue {
  key: string;
  value: JsonAnyValue;
}

function jsonValue(value: JsonAnyValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return "";
}

function jsonAttributes(list: JsonKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((item) => [item.key, jsonValue(item.value)]));
}

function spansFromJson(body: string): ReceivedSpan[] {
  const request = JSON.parse(body) as {
    resourceSpans?: Array<{
      resource?: { attributes?: JsonKeyValue[] };
      scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; status?: { code?: number }; attributes?: JsonKeyValue[] }> }>;
    }>;
  };
  return (request.resourceSpans ?? []).flatMap((resourceSpans) =>
    (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? "",
        name: span.name,
        kind: span.kind,
        statusCode: span.status?.code ?? 0,
        attributes: jsonAttributes(span.attributes),
        resource: jsonAttributes(resourceSpans.resource?.attributes),
      })),
    ),
  );
}

function metricNamesFromJson(body: string): string[] {
  const request = JSON.parse(body) as { resourceMetrics?: Array<{ scopeMetrics?: Array<{ metrics?: Array<{ name: string }> }> }> };
  return (request.resourceMetrics ?? []).flatMap((resource) => (resource.scopeMetrics ?? []).flatMap((scope) => (scope.metrics ?? []).map((metric) => metric.name)));
}

// --- OTLP/protobuf (wire format) ------------------------------------------------------------------------

type Field = { number: number; varint?: bigint; bytes?: Buffer; fixed64?: Buffer };

function readVarint(buffer: Buffer, offset: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    const byte = buffer[offset++]!;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [result, offset];
    shift += 7n;
  }
}

function fields(buffer: Buffer): Field[] {
  const result: Field[] = [];
  let offset = 0;
  while (offset < buffer.length) {
    const [key, next] = readVarint(buffer, offset);
    offset = next;
    const number = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [value, after] = readVarint(buffer, offset);
      offset = after;
      result.push({ number, varint: value });
    } else if (wire === 1) {
      result.push({ number, fixed64: buffer.subarray(offset, offset + 8) });
      offset += 8;
    } else if (wire === 2) {
      const [length, after] = readVarint(buffer, offset);
      offset = after + Number(length);
      result.push({ number, bytes: buffer.subarray(after, offset) });
    } else if (wire === 5) {
      offset += 4;
    } else {
      throw new Error(`unexpected protobuf wire type ${wire}`);
    }
  }
  return result;
}

const all = (list: Field[], number: number) => list.filter((field) => field.number === number);
const one = (list: Field[], number: number) => list.find((field) => field.number === number);

function protobufValue(anyValue: Buffer): AttributeValue {
  const list = fields(anyValue);
  const text = one(list, 1)?.bytes;
  if (text) return text.toString("utf8");
  const bool = one(list, 2)?.varint;
  if (bool !== undefined) return bool === 1n;
  const int = one(list, 3)?.varint;
  if (int !== undefined) return Number(BigInt.asIntN(64, int));
  const double = one(list, 4)?.fixed64;
  if (double) return double.readDoubleLE(0);
  return "";
}

function protobufAttributes(list: Field[], number: number): Record<string, AttributeValue> {
  return Object.fromEntries(
    all(list, number).map((field) => {
      const keyValue = fields(field.bytes!);
      return [one(keyValue, 1)?.bytes?.toString("utf8") ?? "", protobufValue(one(keyValue, 2)?.bytes ?? Buffer.alloc(0))];
    }),
  );
}

function spansFromProtobuf(body: Buffer): ReceivedSpan[] {
  // ExportTraceServiceRequest { 1: ResourceSpans { 1: Resource { 1: attributes }, 2: ScopeSpans { 2: Span } } }
  return all(fields(body), 1).flatMap((resourceSpans) => {
    const resourceFields = fields(resourceSpans.bytes!);
    const resourceMessage = one(resourceFields, 1)?.bytes;
    const resource = resourceMessage ? protobufAttributes(fields(resourceMessage), 1) : {};
    return all(resourceFields, 2).flatMap((scopeSpans) =>
      all(fields(scopeSpans.bytes!), 2).map((spanField) => {
        // Span { 1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 6 kind, 9 attributes, 15 status { 3 code } }
        const span = fields(spanField.bytes!);
        const status = one(span, 15)?.bytes;
        return {
          traceId: one(span, 1)?.bytes?.toString("hex") ?? "",
          spanId: one(span, 2)?.bytes?.toString("hex") ?? "",
          parentSpanId: one(span, 4)?.bytes?.toString("hex") ?? "",
          name: one(span, 5)?.bytes?.toString("utf8") ?? "",
          kind: Number(one(span, 6)?.varint ?? 0n),
          statusCode: status ? Number(one(fields(status), 3)?.varint ?? 0n) : 0,
          attributes: protobufAttributes(span, 9),
          resource,
        };
      }),
    );
  });
}

// --- The server -----------------------------------------------------------------------------------------

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: ReceivedRequest[] = [];
  const metricNames = new Set<string>();
  const waiters = new Set<() => void>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const contentType = req.headers["content-type"] ?? "";
      const path = req.url ?? "";
      requests.push({ path, contentType, bytes: body.length });
      try {
        if (path === "/v1/traces") spans.push(...(contentType.includes("json") ? spansFromJson(body.toString("utf8")) : spansFromProtobuf(body)));
        else if (path === "/v1/metrics" && contentType.includes("json")) for (const name of metricNamesFromJson(body.toString("utf8"))) metricNames.add(name);
      } catch (error) {
        res.writeHead(400).end(String(error));
        return;
      }
      for (const wake of waiters) wake();
      res.writeHead(200, { "content-type": contentType.includes("json") ? "application/json" : "application/x-protobuf" }).end(contentType.includes("json") ? "{}" : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    metricNames,
    waitForSpan(predicate, timeoutMs = 10_000) {
      const found = spans.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const wake = () => {
          const match = spans.find(predicate);
          if (!match) return;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(match);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no matching span within ${timeoutMs} ms (${spans.length} received: ${[...new Set(spans.map((span) => span.name))].join(", ")})`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A collector that accepts connections and never answers: every export waits for its timeout. */
export async function startBlackHole(): Promise<{ url: string; connections: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: TcpServer = createTcpServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("data", () => {});
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, read, released): connections to it are refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
