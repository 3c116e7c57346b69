/**
 * The domain error vocabulary. Services throw these; they know nothing of HTTP. The mapping of
 * each code to a status and to the OpenAPI error responses lives in lib/http/errors.ts.
 */
export const errorCodes = [
  "VALIDATION_ERROR",
  "INVALID_TRANSITION",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "TWO_FACTOR_REQUIRED",
  // Kept in the vocabulary the API documents, though no endpoint answers it: a suspected copy of a tag is
  // answered as any scan (a refusal locked genuine finders out) and reaches the owner as a notification.
  "TAG_CLONE_DETECTED",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "UNPROCESSABLE_ENTITY",
  "RATE_LIMIT_EXCEEDED",
  "INTERNAL_ERROR",
  "PAYMENT_PROVIDER_ERROR",
  "SERVICE_UNAVAILABLE",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface FieldIssue {
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Per-field problems, carried in both forms the API specification shows (docs/decisions/0004-error-envelope.md). */
export class ValidationError extends DomainError {
  constructor(issues: FieldIssue[], message = "The request is invalid.") {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of issues) (fieldErrors[issue.field] ??= []).push(issue.message);
    super("VALIDATION_ERROR", message, { issues, fieldErrors });
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError([{ field, message }], message);
  }
}

export class InvalidTransitionError extends DomainError {
  constructor(message = "This status change is not allowed.", details?: unknown) {
    super("INVALID_TRANSITION", message, details);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = "Authentication is required.") {
    super("UNAUTHORIZED", message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = "You do not have permission to do this.") {
    super("FORBIDDEN", message);
  }
}

export class TwoFactorRequiredError extends DomainError {
  constructor(message = "A two-factor code is required.") {
    super("TWO_FACTOR_REQUIRED", message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message = "The resource was not found.") {
    super("NOT_FOUND", message);
  }
}

export class MethodNotAllowedError extends DomainError {
  constructor(readonly allowed: string[]) {
    super("METHOD_NOT_ALLOWED", "This method is not allowed on this resource.", { allowed });
  }
}

export class ConflictError extends DomainError {
  constructor(message = "The request conflicts with the current state.", details?: unknown) {
    super("CONFLICT", message, details);
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(limitBytes: number) {
    super("PAYLOAD_TOO_LARGE", `The request body exceeds ${Math.round(limitBytes / 1024)} KB.`, { limitBytes });
  }
}

/** A body sent in a format the endpoint does not take (JSON endpoints take only application/json). */
export class UnsupportedMediaTypeError extends DomainError {
  constructor(expected: string, received: string | null) {
    super("UNSUPPORTED_MEDIA_TYPE", `Send the request body as ${expected}.`, { expected, received });
  }
}

export class UnprocessableError extends DomainError {
  constructor(message: string, details?: unknown) {
    super("UNPROCESSABLE_ENTITY", message, details);
  }
}

export class RateLimitError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super("RATE_LIMIT_EXCEEDED", "Too many requests. Please try again later.");
  }
}

/**
 * The payment provider refused or failed a call (unreachable, its own error, a request it would not take):
 * nothing the caller can fix by changing the request, and nothing was charged by the failed call.
 */
export class PaymentProviderError extends DomainError {
  constructor(
    message = "The payment provider could not complete the request. Please try again shortly.",
    details?: { provider: string; retryable: boolean; providerCode?: string | null; requestId?: string | null },
  ) {
    super("PAYMENT_PROVIDER_ERROR", message, details);
  }
}

export class ServiceUnavailableError extends DomainError {
  constructor(
    message = "The service is temporarily unavailable. Please try again shortly.",
    /** When the client may try again (Retry-After), where that is known. */
    readonly retryAfterSeconds?: number,
  ) {
    super("SERVICE_UNAVAILABLE", message);
  }
}

/** True when `error` (or one of its causes, as Drizzle wraps driver errors) is a PostgreSQL unique violation. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
