import type { Span } from "@opentelemetry/api";
import type { z } from "zod";
import { getDatabase } from "@/db/client";
import { REQUEST_DATABASE_BUDGET_MS, withDatabaseBudget } from "@/db/availability";
import { log, describeError } from "@/lib/log";
import { observeRequest, secondsSince } from "@/lib/metrics/registry";
import { recordRequestDuration } from "@/lib/telemetry/metrics";
import { endRequestSpan, startRequestSpan, withRequestSpan } from "@/lib/telemetry/tracing";
import { telemetryUserHash } from "@/lib/telemetry/user";
import { checkRateLimits, type RateLimitDecision } from "@/lib/ratelimit";
import type { Actor, ServiceContext } from "@/lib/services/context";
import { DomainError, ForbiddenError, MethodNotAllowedError, NotFoundError, RateLimitError, ServiceUnavailableError, UnauthorizedError, ValidationError } from "@/lib/services/errors";
import { controlCharacterIssues } from "@/lib/validation/control-characters";
import { requestIdFrom } from "./request-id";
import { isAdmin, resolveCaller, type Caller } from "./auth";
import { DEFAULT_BODY_LIMIT_BYTES, readBodyBytes, readJsonBody } from "./body";
import { clientIp } from "./client-ip";
import { endpointRateLimits, type Endpoint } from "./endpoint";
import { Paginated, WithStatus } from "./envelope";
import { errorBody, errorStatus, isTransientConflict, toDomainError, zodIssuesToFields } from "./errors";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_FINISH_BUDGET_MS,
  idempotencyApplies,
  idempotencyCaller,
  isStorableStatus,
  parseIdempotencyKey,
  releaseIdempotencyKey,
  requestHash,
  type IdempotencyClaim,
  type RequestFingerprint,
} from "./idempotency";

type ObjectSchema = z.ZodObject<z.ZodRawShape>;
type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<P = unknown, Q = unknown, B = unknown> {
  req: Request;
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
  caller: Caller;
  ctx: ServiceContext;
  requestId: string;
  ip: string;
}

/** What a handler may return: data (wrapped), a page, data with a status, or a finished Response. */
export type HandlerResult = unknown;

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (req: Request, context: RouteContext) => Promise<Response>;

const EXPOSED_HEADERS = "X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Idempotent-Replayed, Location";
const ALLOWED_HEADERS = "Authorization, Content-Type, X-API-Key, X-Request-Id, Last-Event-ID, Payment-Signature, Idempotency-Key";

function requestIdFor(req: Request): string {
  return requestIdFrom(req.headers.get("x-request-id"));
}

function isVersioned(endpoint: Pick<Endpoint, "path" | "versioned">): boolean {
  return endpoint.versioned ?? endpoint.path.startsWith("/api/v1");
}

/** CORS for /api/v1: any origin, no credentials (bearer and API-key callers; cookies stay same-origin). */
export function applyCorsHeaders(headers: Headers): void {
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  headers.append("Vary", "Origin");
}

export function applyRateLimitHeaders(headers: Headers, decision: RateLimitDecision): void {
  headers.set("X-RateLimit-Limit", String(decision.limit));
  headers.set("X-RateLimit-Remaining", String(Math.max(0, decision.remaining)));
  headers.set("X-RateLimit-Reset", String(decision.reset));
  if (!decision.allowed) headers.set("Retry-After", String(Math.max(1, decision.retryAfter)));
  else if (headers.has("Retry-After")) headers.set("X-RateLimit-Remaining", "0");
}

export function errorResponse(error: DomainError, requestId: string): Response {
  return Response.json(errorBody(error), { status: errorStatus[error.code] ?? 500, headers: { "X-Request-Id": requestId } });
}

/** The service actor of a resolved caller: the API's, and the finder page's (lib/finder-page/route.ts). */
export function actorFor(caller: Caller, ip: string): Actor {
  if (caller.kind === "user") {
    return { kind: "user", userId: caller.userId, role: caller.role, sessionId: caller.sessionId, apiKeyId: caller.apiKeyId, ip };
  }
  return { kind: "public", ip };
}

function toResponse(result: HandlerResult, defaultStatus: number): Response {
  if (result instanceof Response) return result;
  if (result instanceof Paginated) return Response.json({ success: true, data: result.items, meta: result.meta }, { status: defaultStatus });
  if (result instanceof WithStatus) {
    const response = Response.json({ success: true, data: result.data }, { status: result.status });
    for (const [name, value] of result.headers) response.headers.append(name, value);
    return response;
  }
  if (defaultStatus === 204) return new Response(null, { status: 204 });
  return Response.json({ success: true, data: result ?? null }, { status: defaultStatus });
}

async function parsePart<S extends z.ZodType | undefined>(schema: S, value: unknown, onError: (error: z.ZodError) => DomainError) {
  if (!schema) return undefined;
  const parsed = await schema.safeParseAsync(value);
  if (!parsed.success) throw onError(parsed.error);
  return parsed.data;
}

/** The part of a raw input the schema takes: an object schema's own keys (unknown fields are ignored). */
function acceptedPart(schema: z.ZodType, value: unknown): unknown {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (!shape || !value || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => Object.hasOwn(shape, key)));
}

/**
 * Validates a query or body. Every string an endpoint takes, in any present or future schema, is also
 * checked here once for control characters (NUL would fail the query; the other C0 controls are junk)
 * and lone surrogates (`"\ud800"`: not text, and jsonb refuses it), and reported beside the schema's own
 * issues so one answer names every bad field.
 */
async function parseInput<S extends z.ZodType | undefined>(schema: S, value: unknown) {
  if (!schema) return undefined;
  const controls = controlCharacterIssues(acceptedPart(schema, value));
  const parsed = await schema.safeParseAsync(value);
  if (!parsed.success) {
    const issues = zodIssuesToFields(parsed.error.issues);
    throw new ValidationError([...issues, ...controls.filter((control) => !issues.some((issue) => issue.field === control.field))]);
  }
  if (controls.length) throw new ValidationError(controls);
  return parsed.data;
}

/** Path params as Next decoded them; a segment Next could not decode is a path that names nothing (404). */
async function routeParams(context: RouteContext | undefined): Promise<Record<string, unknown>> {
  try {
    return (await context?.params) ?? {};
  } catch {
    throw new NotFoundError();
  }
}

function queryObject(url: URL): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    result[key] = values.length === 1 ? values[0]! : values;
  }
  return result;
}

/**
 * The one wrapper every API handler goes through: request id, caller, rate limits, validation of
 * params (a bad id is 404), query and body (400), the envelope, and error mapping. Handlers stay
 * thin: they call one service and return its result.
 */
export function route<
  P extends ObjectSchema | undefined,
  Q extends ObjectSchema | undefined,
  B extends z.ZodType | undefined,
  R extends z.ZodType | undefined,
>(endpoint: Endpoint<P, Q, B, R>, handler: (input: HandlerInput<P, Q, B>) => Promise<HandlerResult>): RouteHandler {
  const versioned = isVersioned(endpoint);
  const policies = endpointRateLimits(endpoint);
  const idempotent = idempotencyApplies(endpoint);

  const handle = async (req: Request, context: RouteContext, span: Span | undefined): Promise<Response> => {
    const startedAt = performance.now();
    const requestId = requestIdFor(req);
    const ip = clientIp(req.headers);
    let decision: RateLimitDecision | undefined;
    let response: Response;
    let userId: string | undefined;

    try {
      // Every query of this request shares one database budget, and none starts once the client has gone.
      response = await withDatabaseBudget(
        REQUEST_DATABASE_BUDGET_MS,
        async () => {
          const database = getDatabase();
          let caller: Caller = { kind: "anonymous" };
          let callerError: unknown;
          try {
            if (endpoint.credentials !== false) caller = await resolveCaller({ req, db: database.db, ip });
          } catch (error) {
            // Still count the request against the IP before answering the credential error.
            callerError = error;
          }
          if (caller.kind === "user") userId = caller.userId;

          if (versioned) {
            decision = await checkRateLimits([...policies], { ip, userId: caller.kind === "user" ? caller.userId : null });
            if (!decision.allowed) throw new RateLimitError(decision.retryAfter);
          }
          if (callerError) throw callerError;

          if (endpoint.auth === "user" && caller.kind !== "user") throw new UnauthorizedError();
          if (endpoint.apiKey === false && caller.kind === "user" && caller.via === "api-key") {
            throw new ForbiddenError("API keys cannot be used for this operation; sign in instead.");
          }
          if (endpoint.auth === "admin") {
            if (caller.kind !== "user") throw new UnauthorizedError();
            if (!isAdmin(caller)) throw new ForbiddenError();
          }

          const rawParams = await routeParams(context);
          // A control character in a path segment names nothing: 404 like any other unknown id.
          if (controlCharacterIssues(rawParams).length) throw new NotFoundError();
          const params = await parsePart(endpoint.params, rawParams, () => new NotFoundError());
          // Parsing the URL only for an endpoint that takes a query: most do not, and the scan is the hottest.
          const query = endpoint.query ? await parseInput(endpoint.query, queryObject(new URL(req.url))) : undefined;
          // Idempotency-Key (lib/http/idempotency.ts): for a signed-in caller's POST; a malformed key is 400.
          const key = idempotent && caller.kind === "user" && req.method === "POST" ? parseIdempotencyKey(req.headers.get("idempotency-key")) : undefined;
          const hasBody = endpoint.body && req.method !== "GET" && req.method !== "HEAD";
          const rawBody = hasBody ? await readJsonBody(req, endpoint.bodyLimitBytes) : undefined;
          const body = hasBody ? await parseInput(endpoint.body, rawBody) : undefined;

          let handlerRequest = req;
          let claim: IdempotencyClaim | undefined;
          if (key !== undefined && caller.kind === "user") {
            const url = new URL(req.url);
            let fingerprintBody: RequestFingerprint["body"] = hasBody ? { json: rawBody } : undefined;
            if (!hasBody && endpoint.formBody) {
              // A body the handler reads itself (multipart): read here for the hash, handed on as a fresh Request.
              const bytes = await readBodyBytes(req, endpoint.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES);
              fingerprintBody = { bytes };
              handlerRequest = new Request(req.url, { method: req.method, headers: req.headers, body: new Uint8Array(bytes), signal: req.signal });
            }
            const path = url.pathname + url.search;
            const hash = requestHash({ method: req.method, path, body: fingerprintBody });
            const outcome = await claimIdempotencyKey(database.db, { caller: idempotencyCaller(caller.userId), key, method: req.method, path: url.pathname, hash });
            if (outcome.kind === "replay") return outcome.response;
            claim = outcome.claim;
          }

          const ctx: ServiceContext = { actor: actorFor(caller, ip), db: database.db, requestId, ...(caller.kind === "user" ? { user: caller.user } : {}) };
          const run = async () =>
            toResponse(
              await handler({
                req: handlerRequest,
                params: params as Infer<P>,
                query: query as Infer<Q>,
                body: body as Infer<B>,
                caller,
                ctx,
                requestId,
                ip,
              }),
              endpoint.successStatus ?? 200,
            );
          if (!claim) return run();
          return runClaimed(claim, run, requestId);
        },
        req.signal,
      );
    } catch (thrown) {
      const error = toDomainError(thrown);
      if (error.code === "INTERNAL_ERROR") {
        log.error("unhandled error", { requestId, method: req.method, route: endpoint.path, path: new URL(req.url).pathname, ...describeError(thrown) });
      } else if (error.code === "SERVICE_UNAVAILABLE" && isTransientConflict(thrown)) {
        // A deadlock says two code paths take the same locks in different orders: worth a look each time.
        log.warn("request answered 503: its transaction conflicted with another", { requestId, method: req.method, route: endpoint.path, path: new URL(req.url).pathname, ...describeError(thrown) });
      } else if (error.code === "SERVICE_UNAVAILABLE") {
        // The outage itself is logged once, with its cause, by db/availability.ts; this is per request.
        log.debug("request answered 503: database unavailable", { requestId, ...describeError(thrown) });
      }
      response = errorResponse(error, requestId);
      // A limit a service enforces (the per-account login lockout) says when to come back too.
      if (error instanceof RateLimitError) response.headers.set("Retry-After", String(Math.max(1, error.retryAfterSeconds)));
      if (error instanceof ServiceUnavailableError && error.retryAfterSeconds !== undefined) response.headers.set("Retry-After", String(error.retryAfterSeconds));
    }

    // By the contract's path template, so a dashboard sees one series per operation, not one per id.
    const seconds = secondsSince(startedAt);
    observeRequest(endpoint.path, req.method, response.status, seconds);
    recordRequestDuration(endpoint.path, req.method, response.status, seconds);
    if (span) endRequestSpan(span, { status: response.status, requestId, userHash: userId === undefined ? undefined : telemetryUserHash(userId) });
    return finish(response, { requestId, versioned, decision });
  };

  // With tracing (lib/telemetry), the request runs in a span named by its route template; without, as is.
  return (req, context) => {
    const traced = startRequestSpan(endpoint.path, req.method, req.headers);
    return traced ? withRequestSpan(traced, () => handle(req, context, traced.span)) : handle(req, context, undefined);
  };
}

/**
 * Runs a handler whose request claimed an Idempotency-Key and stores its answer, or releases the key for an
 * answer not to keep (5xx, 429), with a small database budget of its own: the effect has happened (or not)
 * by now, and recording it must not depend on the client still waiting. A domain error the handler throws
 * is its answer like any other (stored when 4xx). If the answer cannot be stored, the key stays "running"
 * (a retry is 409), never free: the effect may have been committed.
 */
async function runClaimed(claim: IdempotencyClaim, run: () => Promise<Response>, requestId: string): Promise<Response> {
  const { db } = getDatabase();
  const settle = async (work: () => Promise<void>) => {
    try {
      await withDatabaseBudget(IDEMPOTENCY_FINISH_BUDGET_MS, work);
    } catch (error) {
      log.warn("idempotency key not settled", { requestId, ...describeError(error) });
    }
  };
  let response: Response;
  try {
    response = await run();
  } catch (thrown) {
    const error = toDomainError(thrown);
    if (!isStorableStatus(errorStatus[error.code] ?? 500)) {
      await settle(() => releaseIdempotencyKey(db, claim));
      throw thrown;
    }
    response = errorResponse(error, requestId);
  }
  await settle(() => completeIdempotencyKey(db, claim, response));
  return response;
}

function finish(response: Response, { requestId, versioned, decision }: { requestId: string; versioned: boolean; decision?: RateLimitDecision }) {
  const headers = response.headers;
  headers.set("X-Request-Id", requestId);
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  if (versioned) {
    applyCorsHeaders(headers);
    if (decision) applyRateLimitHeaders(headers, decision);
  }
  return response;
}

/**
 * CORS preflight for /api/v1 routes (`export { preflight as OPTIONS } from "@/lib/http"`):
 * answers with the allowed methods and headers and peeks at the caller's general limit without
 * counting the preflight against it.
 */
export async function preflight(req: Request): Promise<Response> {
  const requestId = requestIdFor(req);
  const ip = clientIp(req.headers);
  const response = new Response(null, { status: 204 });
  response.headers.set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
  response.headers.set("Access-Control-Allow-Headers", ALLOWED_HEADERS);
  response.headers.set("Access-Control-Max-Age", "600");
  let decision: RateLimitDecision | undefined;
  try {
    decision = await checkRateLimits(["general"], { ip }, { consume: false });
  } catch (error) {
    log.warn("rate limit peek failed", { requestId, ...describeError(error) });
  }
  return finish(response, { requestId, versioned: true, decision });
}

export type { ObjectSchema };

const ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof ALL_METHODS)[number];

/**
 * Handlers for the methods a route file does not support, so they answer the 405 envelope with the
 * rate-limit headers instead of Next's bare 405: `export const { POST, PUT, PATCH, DELETE } = otherMethods(endpoint)`.
 */
export function otherMethods(...supported: Pick<Endpoint, "method" | "path">[]): Record<Method, RouteHandler> {
  const allowed = [...supported.map((endpoint) => endpoint.method), "OPTIONS"];
  const path = supported[0]?.path ?? "/api/v1";
  const handler = route({ method: "GET", path, summary: "Method not allowed", tags: [], auth: "public", hidden: true }, async () => {
    throw new MethodNotAllowedError(allowed);
  });
  const withAllow: RouteHandler = async (req, context) => {
    const response = await handler(req, context);
    response.headers.set("Allow", allowed.join(", "));
    return response;
  };
  return Object.fromEntries(ALL_METHODS.map((method) => [method, withAllow])) as Record<Method, RouteHandler>;
}
