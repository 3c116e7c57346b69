import { z } from "zod";
import { isDatabaseUnavailable, isTransientConflict } from "@/db/availability";
import { DomainError, ServiceUnavailableError, ValidationError, type ErrorCode, type FieldIssue } from "@/lib/services/errors";

/** The one table of error code → HTTP status; it also feeds the OpenAPI error responses. */
export const errorStatus: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  INVALID_TRANSITION: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  TWO_FACTOR_REQUIRED: 403,
  TAG_CLONE_DETECTED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_ENTITY: 422,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  PAYMENT_PROVIDER_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
};

export const errorDescriptions: Record<ErrorCode, string> = {
  VALIDATION_ERROR: "The body, query or a field failed validation.",
  INVALID_TRANSITION: "The requested status change is not allowed.",
  UNAUTHORIZED: "Missing, invalid or expired credential.",
  FORBIDDEN: "Authenticated, but not allowed to do this.",
  TWO_FACTOR_REQUIRED: "Login needs a two-factor code.",
  TAG_CLONE_DETECTED: "The tag was scanned from impossibly distant places within minutes.",
  NOT_FOUND: "The resource does not exist or is not yours.",
  METHOD_NOT_ALLOWED: "The method is not supported on this path.",
  CONFLICT: "Duplicate or state conflict.",
  PAYLOAD_TOO_LARGE: "The request body is over 1 MB.",
  UNSUPPORTED_MEDIA_TYPE: "The body is not application/json (JSON endpoints take no other type).",
  UNPROCESSABLE_ENTITY: "A valid request that a business rule refuses.",
  RATE_LIMIT_EXCEEDED: "Too many requests. Please try again later.",
  INTERNAL_ERROR: "Unexpected server error.",
  PAYMENT_PROVIDER_ERROR: "The payment provider failed or refused the call; nothing was charged by it. Retry shortly.",
  SERVICE_UNAVAILABLE: "The database is unreachable, or the request's transaction met another changing the same rows at the same moment (then with Retry-After); retry shortly.",
};

const GENERIC_INTERNAL_MESSAGE = "An unexpected error occurred. Please try again later.";

/** Turns zod issues into the field list of VALIDATION_ERROR (`field` is the dotted path). */
export function zodIssuesToFields(issues: readonly z.core.$ZodIssue[], prefix?: string): FieldIssue[] {
  return issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    const field = [prefix, path].filter(Boolean).join(".") || prefix || "body";
    return { field, message: issue.message };
  });
}

export function validationErrorFromZod(error: z.ZodError, prefix?: string): ValidationError {
  return new ValidationError(zodIssuesToFields(error.issues, prefix));
}

export { isDatabaseUnavailable, isTransientConflict };

/** Maps anything thrown to a domain error; unknown errors become INTERNAL_ERROR with a generic message. */
export function toDomainError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof z.ZodError) return validationErrorFromZod(error);
  if (isDatabaseUnavailable(error)) return new ServiceUnavailableError();
  // Rolled back whole (nothing half-written), and likely to pass when sent again: 503 with Retry-After, not a 500.
  if (isTransientConflict(error)) return new ServiceUnavailableError("The request met another one changing the same data at the same moment. Please try again.", 1);
  return new DomainError("INTERNAL_ERROR", GENERIC_INTERNAL_MESSAGE);
}

export interface ErrorBody {
  success: false;
  error: { code: ErrorCode; message: string; details?: unknown };
}

export function errorBody(error: DomainError): ErrorBody {
  return {
    success: false,
    error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) },
  };
}
