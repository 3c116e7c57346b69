import type { z } from "zod";
import type { ErrorCode } from "@/lib/services/errors";
import type { RateLimitPolicyName } from "@/lib/ratelimit/policies";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type AuthRequirement = "public" | "optional" | "user" | "admin";
export type ResponseKind = "json" | "paginated" | "html" | "event-stream" | "image" | "file" | "empty" | "xml";

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

/**
 * One endpoint's HTTP contract, written once: route() enforces it and lib/openapi.ts documents it.
 * `path` uses OpenAPI's `{param}` form.
 */
export interface Endpoint<
  P extends ObjectSchema | undefined = ObjectSchema | undefined,
  Q extends ObjectSchema | undefined = ObjectSchema | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /**
   * The operation's name in the OpenAPI document and in generated clients: verb-noun camelCase (`listTags`,
   * `getScanView`), unique, stable across path changes. Derived from the method and path when omitted
   * (lib/openapi.ts), but write it: the derived names are clumsy. See docs/api.md.
   */
  operationId?: string;
  method: HttpMethod;
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: AuthRequirement;
  /** False for account-security endpoints an API key may not call (keys, sessions, password, 2FA, export, delete): 403. */
  apiKey?: boolean;
  /**
   * False for a POST whose answer is a secret shown once (a new API key, a TOTP secret, backup codes): it
   * ignores `Idempotency-Key`, so the secret is never stored or shown twice. See lib/http/idempotency.ts.
   */
  idempotency?: boolean;
  /** Policies of the Limits table; `general` when omitted. */
  rateLimit?: RateLimitPolicyName[];
  params?: P;
  query?: Q;
  body?: B;
  /** Schema of `data` in the success envelope (of one item for paginated lists). */
  response?: R;
  /** A multipart/form-data body the handler reads itself (`req.formData()`): documented, not parsed by route(). */
  formBody?: z.ZodObject<z.ZodRawShape>;
  /**
   * A body the handler reads itself as raw text (a signed webhook: the signature covers the exact bytes, so
   * nothing may parse it first): documented with this schema and media type, not parsed by route().
   */
  rawBody?: { mediaType: string; schema: z.ZodType };
  /** Request headers the endpoint reads (documented only). */
  headers?: ObjectSchema;
  /**
   * False for an endpoint that takes no credential at all (a webhook, whose caller is known by its
   * signature): route() does not resolve one, so a stray Authorization header costs no lookup and rate
   * limits count by IP.
   */
  credentials?: boolean;
  responseKind?: ResponseKind;
  /** The media types a `file` answer (a download: Content-Disposition attachment) or an `image` answer comes in. */
  mediaTypes?: string[];
  successStatus?: 200 | 201 | 202 | 204;
  /** Other success statuses the endpoint answers with the same body (e.g. 200 when a create-or-replace replaces). */
  otherSuccess?: { status: 200 | 201 | 202; description: string }[];
  /** Error codes this endpoint can answer besides those every endpoint can. */
  errors?: ErrorCode[];
  bodyLimitBytes?: number;
  /** Left out of the OpenAPI document (development-only endpoints). */
  hidden?: boolean;
  /** Under /api/v1: rate-limit headers, CORS. False for /api/health and /api/dev. */
  versioned?: boolean;
}

/** The policies an endpoint counts: its own, or `general` when it names none. route(), action.for() and pages use this. */
export function endpointRateLimits(endpoint: Pick<Endpoint, "rateLimit">): RateLimitPolicyName[] {
  return endpoint.rateLimit?.length ? endpoint.rateLimit : ["general"];
}

export function defineEndpoint<
  P extends ObjectSchema | undefined = undefined,
  Q extends ObjectSchema | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(endpoint: Endpoint<P, Q, B, R>): Endpoint<P, Q, B, R> {
  return endpoint;
}
