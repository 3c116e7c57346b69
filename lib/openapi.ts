import { createHash } from "node:crypto";
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { env } from "@/lib/env";
import { errorCodes, type ErrorCode } from "@/lib/services/errors";
import type { Endpoint } from "@/lib/http/endpoint";
import { allEndpoints } from "@/lib/http/endpoints";
import { errorDescriptions, errorStatus } from "@/lib/http/errors";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_TTL_HOURS, IDEMPOTENCY_WAIT_MS, IDEMPOTENT_REPLAYED_HEADER, idempotencyApplies } from "@/lib/http/idempotency";

// registry.register() needs the .openapi() extension; schemas elsewhere use zod's own .meta().
extendZodWithOpenApi(z);

/** Shared components: the error envelope, validation details and pagination meta. */
export const fieldIssueSchema = z.object({ field: z.string(), message: z.string() }).meta({ id: "FieldIssue" });

export const validationDetailsSchema = z
  .object({ issues: z.array(fieldIssueSchema), fieldErrors: z.record(z.string(), z.array(z.string())) })
  .meta({ id: "ValidationDetails", description: "Per-field problems, as a list and as a map of field to messages." });

export const errorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(errorCodes).meta({ description: "Stable machine-readable code; clients use this, not the message." }),
      message: z.string(),
      details: z.unknown().optional().meta({ description: "For VALIDATION_ERROR, a ValidationDetails object." }),
    }),
  })
  .meta({ id: "ErrorEnvelope" });

export const pageMetaSchema = z
  .object({
    total: z.int().min(0),
    page: z.int().min(1),
    totalPages: z.int().min(0),
    totalIsEstimate: z.boolean().optional().meta({ description: "Over 10,000 items: `total` is an estimate" }),
    nextCursor: z.string().nullable().optional().meta({ description: "`cursor` of the next page; null on the last" }),
  })
  .meta({ id: "PageMeta" });

const successEnvelope = (data: z.ZodType) => z.object({ success: z.literal(true), data });
const paginatedEnvelope = (item: z.ZodType) => z.object({ success: z.literal(true), data: z.array(item), meta: pageMetaSchema });

const rateLimitHeaderDefinitions = {
  "X-RateLimit-Limit": { description: "Requests allowed in the current window (the tightest limit that applies)", schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { description: "Requests left in the window", schema: { type: "integer" as const } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) when the window resets", schema: { type: "integer" as const } },
};
const retryAfterHeader = { description: "Seconds to wait", schema: { type: "integer" as const } };

// Every response of every /api/v1 operation carries these. The document says so once (info.description) and
// lists them on the shared error responses, 429 above all; written on each success response too they were
// an eighth of the document, which Swagger UI parses on every visit to /docs (docs/api.md).
const rateLimitHeaders = Object.fromEntries(Object.keys(rateLimitHeaderDefinitions).map((name) => [name, { $ref: `#/components/headers/${name}` }])) as Record<string, { $ref: string }>;

/** The optional `Idempotency-Key` request header of every POST that honours it (lib/http/idempotency.ts). */
const idempotencyHeaders = z.object({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x20-\x7e]+$/)
    .optional()
    .meta({
      description: `Makes a retry safe (Stripe's semantics): 1–255 printable ASCII characters, e.g. a UUID; otherwise 400. The first answer (other than 5xx or 429) is kept for ${IDEMPOTENCY_TTL_HOURS} hours for you and this key: a retry with the same method, path and body gets it again with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`; the same key with another request is 422; a retry while the first is still running waits up to ${IDEMPOTENCY_WAIT_MS / 1000} s, then is 409. Keys are per user, whichever credential sends them.`,
      example: "5f0c2a8e-6a41-4d3c-9f57-0b6a9a1d2e11",
    }),
});

const replayedHeaderDefinition = { description: `\`true\` when this is the stored answer to an earlier request with the same ${IDEMPOTENCY_HEADER}`, schema: { type: "string" as const, enum: ["true"] } };
const replayedHeader = { [IDEMPOTENT_REPLAYED_HEADER]: { $ref: `#/components/headers/${IDEMPOTENT_REPLAYED_HEADER}` } };

function commonErrors(endpoint: Endpoint): ErrorCode[] {
  const codes = new Set<ErrorCode>(["INTERNAL_ERROR", "SERVICE_UNAVAILABLE"]);
  const versioned = endpoint.versioned ?? endpoint.path.startsWith("/api/v1");
  if (versioned) codes.add("RATE_LIMIT_EXCEEDED");
  if (endpoint.auth === "user" || endpoint.auth === "admin") codes.add("UNAUTHORIZED");
  if (endpoint.auth === "admin") codes.add("FORBIDDEN");
  // Any credential sent is checked, even where none is needed: a bad one is 401, a suspended user's or a
  // cross-site cookie request 403 (lib/http/auth.ts).
  if (endpoint.credentials !== false) codes.add("UNAUTHORIZED").add("FORBIDDEN");
  if (endpoint.params) codes.add("NOT_FOUND");
  if (endpoint.query || endpoint.body || endpoint.rawBody) codes.add("VALIDATION_ERROR");
  if (endpoint.body) codes.add("PAYLOAD_TOO_LARGE").add("UNSUPPORTED_MEDIA_TYPE");
  if (idempotencyApplies(endpoint)) codes.add("VALIDATION_ERROR").add("CONFLICT").add("UNPROCESSABLE_ENTITY");
  if (endpoint.rawBody) codes.add("PAYLOAD_TOO_LARGE");
  for (const code of endpoint.errors ?? []) codes.add(code);
  return [...codes];
}

/** `VALIDATION_ERROR` → `ValidationError`, `tagId` → `TagId`, `Idempotency-Key` → `IdempotencyKey`. */
const pascalCase = (words: string) =>
  words
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + (word === word.toUpperCase() ? word.slice(1).toLowerCase() : word.slice(1)))
    .join("");

/** One response component per status and set of codes (`Unauthorized`, `ValidationErrorOrInvalidTransition`). */
type ErrorResponseComponents = Map<string, ResponseObject>;
type ResponseObject = { description: string; headers?: Record<string, { $ref: string }>; content: Record<string, { schema: { $ref: string } }> };

/**
 * The error statuses of an operation, each a `$ref` to a shared response in `components.responses`: the
 * same few answers (401, 404, 429, 500, …) recur on every operation, and written out on each they were most
 * of the document (docs/api.md).
 */
function errorResponses(endpoint: Endpoint, components: ErrorResponseComponents) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of commonErrors(endpoint)) {
    const status = errorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const versioned = endpoint.versioned ?? endpoint.path.startsWith("/api/v1");
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => {
        const name = codes.map(pascalCase).join("Or") + (versioned ? "" : "WithoutRateLimit");
        if (!components.has(name)) {
          components.set(name, {
            description: codes.map((code) => `\`${code}\`: ${errorDescriptions[code]}`).join(" "),
            headers: versioned ? { ...rateLimitHeaders, ...(status === 429 ? { "Retry-After": { $ref: "#/components/headers/Retry-After" } } : {}) } : undefined,
            content: { "application/json": { schema: { $ref: `#/components/schemas/${name === "ValidationError" ? "ValidationErrorEnvelope" : "ErrorEnvelope"}` } } },
          });
        }
        return [status, { $ref: `#/components/responses/${name}` }];
      }),
  );
}

/**
 * The operation's `operationId` when its contract names none: the method and the path's words
 * (`GET /api/v1/tags/{id}/scans` → `getTagsByIdScans`). Unique because method and path are.
 */
export function derivedOperationId(endpoint: Pick<Endpoint, "method" | "path">): string {
  const words = endpoint.path
    .replace(/^\/api(\/v1)?(?=\/)/, "")
    .split("/")
    .filter(Boolean)
    .map((segment) => (segment.startsWith("{") ? `By${pascalCase(segment.slice(1, -1))}` : pascalCase(segment)));
  return endpoint.method.toLowerCase() + words.join("");
}

function successResponse(endpoint: Endpoint) {
  const status = endpoint.successStatus ?? 200;
  const versioned = endpoint.versioned ?? endpoint.path.startsWith("/api/v1");
  const headers = versioned && idempotencyApplies(endpoint) ? replayedHeader : undefined;
  const kind = endpoint.responseKind ?? "json";
  const others = Object.fromEntries((endpoint.otherSuccess ?? []).map(({ status: other, description }) => [other, { ...jsonSuccess(endpoint, headers), description }]));
  if (kind === "empty" || status === 204) return { [status]: { description: "No content", headers }, ...others };
  if (kind === "xml") return { [status]: { description: "TwiML", headers, content: { "text/xml": { schema: z.string() } } } };
  if (kind === "html") return { [status]: { description: "HTML document", headers, content: { "text/html": { schema: z.string() } } } };
  if (kind === "image") {
    const binary = { schema: z.string().meta({ format: "binary" }) };
    const content = Object.fromEntries((endpoint.mediaTypes ?? ["image/png", "image/svg+xml"]).map((type) => [type, binary]));
    return { [status]: { description: "The image", headers, content } };
  }
  if (kind === "file") {
    const binary = { schema: z.string().meta({ format: "binary" }) };
    const content = Object.fromEntries((endpoint.mediaTypes ?? ["application/octet-stream"]).map((type) => [type, binary]));
    const disposition = { "Content-Disposition": { description: "`attachment` with a file name", schema: { type: "string" as const } } };
    return { [status]: { description: "The file, as a download", headers: { ...headers, ...disposition }, content } };
  }
  if (kind === "event-stream") return { [status]: { description: "Server-sent events", headers, content: { "text/event-stream": { schema: z.string() } } } };
  return { [status]: jsonSuccess(endpoint, headers), ...others };
}

function jsonSuccess(endpoint: Endpoint, headers: Record<string, unknown> | undefined) {
  const data = endpoint.response ?? z.unknown();
  const versioned = endpoint.versioned ?? endpoint.path.startsWith("/api/v1");
  // Endpoints outside the envelope (health, this document) declare their raw body as `response`.
  const enveloped = versioned && endpoint.path !== "/api/v1/openapi.json";
  const schema = endpoint.responseKind === "paginated" ? paginatedEnvelope(data) : enveloped ? successEnvelope(data) : data;
  return { description: "Success", headers, content: { "application/json": { schema } } };
}

/** The credentials of an operation that needs one: the document's default `security`. */
const signedIn: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKey: [] }, { cookieSession: [] }];

export function buildOpenApiDocument(endpoints: Endpoint[] = allEndpoints) {
  const registry = new OpenAPIRegistry();
  registry.register("ErrorEnvelope", errorEnvelopeSchema);
  registry.register("ValidationDetails", validationDetailsSchema);
  registry.register("PageMeta", pageMetaSchema);
  registry.registerComponent("schemas", "ValidationErrorEnvelope", {
    description: "A VALIDATION_ERROR: the error envelope whose `details`, when present, name the fields at fault.",
    allOf: [
      { $ref: "#/components/schemas/ErrorEnvelope" },
      { type: "object", properties: { error: { type: "object", properties: { details: { $ref: "#/components/schemas/ValidationDetails" } } } } },
    ],
  });
  for (const [name, header] of Object.entries(rateLimitHeaderDefinitions)) registry.registerComponent("headers", name, header);
  registry.registerComponent("headers", "Retry-After", retryAfterHeader);
  registry.registerComponent("headers", IDEMPOTENT_REPLAYED_HEADER, replayedHeaderDefinition);
  registry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "15-minute access token from /auth/login or /auth/refresh" });
  registry.registerComponent("securitySchemes", "apiKey", { type: "apiKey", in: "header", name: "X-API-Key", description: "Server-to-server API key" });
  registry.registerComponent("securitySchemes", "cookieSession", { type: "apiKey", in: "cookie", name: "authjs.session-token", description: "Browser session (same-origin only)" });

  const errorComponents: ErrorResponseComponents = new Map();
  for (const endpoint of endpoints) {
    if (endpoint.hidden) continue;
    const secured = endpoint.auth === "user" || endpoint.auth === "admin";
    registry.registerPath({
      operationId: endpoint.operationId ?? derivedOperationId(endpoint),
      method: endpoint.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete",
      path: endpoint.path,
      summary: endpoint.summary,
      description: [endpoint.description, endpoint.auth === "admin" ? "Requires role ADMIN or SUPER_ADMIN." : undefined].filter(Boolean).join("\n\n") || undefined,
      tags: endpoint.tags,
      // A secured operation inherits the document's `security`; the others say what they take instead.
      security: secured ? undefined : endpoint.auth === "optional" ? [{}, { bearerAuth: [] }, { apiKey: [] }] : [],
      request: {
        params: endpoint.params,
        query: endpoint.query,
        // The webhook's own headers are documented by its contract; it is public, so Idempotency-Key never applies to it.
        headers: idempotencyApplies(endpoint) ? idempotencyHeaders : endpoint.headers,
        body: endpoint.body
          ? { required: true, content: { "application/json": { schema: endpoint.body } } }
          : endpoint.formBody
            ? { required: true, content: { "multipart/form-data": { schema: endpoint.formBody } } }
            : endpoint.rawBody
              ? { required: true, content: { [endpoint.rawBody.mediaType]: { schema: endpoint.rawBody.schema } } }
              : undefined,
      },
      responses: { ...successResponse(endpoint), ...errorResponses(endpoint, errorComponents) },
    });
  }
  for (const [name, response] of [...errorComponents.entries()].sort(([a], [b]) => a.localeCompare(b))) registry.registerComponent("responses", name, response);

  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Tag Service API",
      version: "1.0.0",
      description:
        "QR/NFC tags linked to digital profiles: owners manage tags, profiles, messages and rewards; finders scan a tag, see its public page and message the owner anonymously. Every response is `{ success, data }` or `{ success: false, error: { code, message, details? } }`; every /api/v1 response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset. POSTs that take a credential accept an optional `Idempotency-Key` header (documented on each); public POSTs (sign-in, registration, finder contact, contact form, webhook) and those answering a secret shown once (a new API key, 2FA set-up) ignore it.",
    },
    servers: [{ url: env.APP_URL, description: "This deployment" }],
    // What every operation that needs a credential takes, said once rather than on each (docs/api.md).
    security: signedIn,
  });
  return shareRepeatedSuccessResponses(shareRepeatedParameters(document));
}

type ParameterObject = { name: string; in: string; [key: string]: unknown };
type Operations = Record<string, Record<string, { parameters?: (ParameterObject | { $ref: string })[] }>>;

/**
 * Moves every parameter written identically on more than one operation (the `Idempotency-Key` header,
 * a path's `id`, `page` and `limit`) into `components.parameters`, named after the parameter and where it
 * goes (`IdempotencyKeyHeader`, `IdPath`, `PageQuery`), and refers to it from each operation.
 */
function shareRepeatedParameters<D extends { paths?: unknown; components?: object }>(document: D): D {
  const paths = (document.paths ?? {}) as Operations;
  const operations = Object.values(paths).flatMap((item) => Object.values(item));
  const counts = new Map<string, number>();
  for (const operation of operations) {
    for (const parameter of operation.parameters ?? []) {
      if ("$ref" in parameter) continue;
      const key = JSON.stringify(parameter);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const names = new Map<string, string>();
  const shared: Record<string, ParameterObject> = {};
  for (const operation of operations) {
    for (const parameter of operation.parameters ?? []) {
      if ("$ref" in parameter) continue;
      const key = JSON.stringify(parameter);
      if ((counts.get(key) ?? 0) < 2 || names.has(key)) continue;
      const base = pascalCase(parameter.name) + pascalCase(parameter.in);
      let name = base;
      for (let n = 2; name in shared; n++) name = `${base}${n}`;
      names.set(key, name);
      shared[name] = parameter;
    }
  }
  for (const operation of operations) {
    operation.parameters = operation.parameters?.map((parameter) => {
      const name = "$ref" in parameter ? undefined : names.get(JSON.stringify(parameter));
      return name ? { $ref: `#/components/parameters/${name}` } : parameter;
    });
  }
  const components = (document.components ??= {}) as Record<string, unknown>;
  const sorted = Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b)));
  components.parameters = { ...(components.parameters as object | undefined), ...sorted };
  return document;
}

type Responses = Record<string, Record<string, { responses?: Record<string, object> }>>;

/**
 * The name of a success response shared by several operations, from what it carries: `TagSuccess` (the
 * envelope around a Tag), `<Name>PageSuccess` (a page of them), `MessageSuccessIdempotent` (with the
 * Idempotent-Replayed header), `EventStream`. Undefined for one whose data is not a named schema.
 */
function successResponseName(response: { description?: string; headers?: object; content?: Record<string, { schema?: { properties?: Record<string, { $ref?: string }> } }> }): string | undefined {
  if (response.content?.["text/event-stream"]) return "EventStream";
  const properties = response.content?.["application/json"]?.schema?.properties;
  const data = properties?.data?.$ref?.split("/").pop();
  if (!data || response.description !== "Success") return undefined;
  const idempotent = response.headers && IDEMPOTENT_REPLAYED_HEADER in response.headers;
  return `${data}${properties?.meta ? "Page" : ""}Success${idempotent ? "Idempotent" : ""}`;
}

/**
 * Moves every success response written identically on more than one operation (the envelope around a
 * Message on the 25 operations that answer one, a Tag, a TagTransfer, …) into `components.responses` and
 * refers to it from each operation, as the error responses are.
 */
function shareRepeatedSuccessResponses<D extends { paths?: unknown; components?: object }>(document: D): D {
  const operations = Object.values((document.paths ?? {}) as Responses).flatMap((item) => Object.values(item));
  const counts = new Map<string, number>();
  for (const operation of operations) {
    for (const response of Object.values(operation.responses ?? {})) {
      if ("$ref" in response) continue;
      const key = JSON.stringify(response);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const components = (document.components ??= {}) as Record<string, Record<string, object> | undefined>;
  const shared: Record<string, object> = {};
  const names = new Map<string, string>();
  for (const [key, count] of counts) {
    if (count < 2) continue;
    const name = successResponseName(JSON.parse(key) as Parameters<typeof successResponseName>[0]);
    if (!name || name in shared || components.responses?.[name]) continue;
    names.set(key, name);
    shared[name] = JSON.parse(key) as object;
  }
  for (const operation of operations) {
    if (!operation.responses) continue;
    for (const [status, response] of Object.entries(operation.responses)) {
      const name = "$ref" in response ? undefined : names.get(JSON.stringify(response));
      if (name) operation.responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
  components.responses = Object.fromEntries(Object.entries({ ...components.responses, ...shared }).sort(([a], [b]) => a.localeCompare(b)));
  return document;
}

let cached: ReturnType<typeof buildOpenApiDocument> | undefined;

export function openApiDocument() {
  cached ??= buildOpenApiDocument();
  return cached;
}

export interface OpenApiRepresentation {
  json: string;
  /** Strong validator of the JSON bytes. */
  etag: string;
}

let representation: OpenApiRepresentation | undefined;

/** The served bytes, made once per process: the JSON and its validator. */
export function openApiRepresentation(): OpenApiRepresentation {
  if (!representation) {
    const json = JSON.stringify(openApiDocument());
    const hash = createHash("sha256").update(json).digest("base64url").slice(0, 27);
    representation = { json, etag: `"${hash}"` };
  }
  return representation;
}
