import { unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { toDomainError } from "@/lib/http/errors";
import { describeError, log } from "@/lib/log";
import { DomainError, RateLimitError } from "@/lib/services/errors";
import type { FieldErrors, FormState } from "./form-state";

/**
 * Server-side helpers for form actions: turn a failed zod parse or a service's domain error into the
 * FormState the form shows. Only server actions import this file.
 */

const CHECK_FIELDS = "Check the fields marked below.";

/** Per-field messages from a zod error, keyed by the top-level field name. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const { fieldErrors } = z.flattenError(error);
  return fieldErrors as FieldErrors;
}

export function invalidFields(error: z.ZodError, values?: Record<string, string>): FormState {
  return { status: "error", message: CHECK_FIELDS, fieldErrors: zodFieldErrors(error), values };
}

export function formError(message: string, values?: Record<string, string>, fieldErrors?: FieldErrors): FormState {
  return { status: "error", message, fieldErrors, values };
}

export function formSuccess(message: string, values?: Record<string, string>): FormState {
  return { status: "success", message, values };
}

export function waitMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = retryAfterSeconds < 90 ? `${Math.max(1, retryAfterSeconds)} seconds` : `${minutes} minutes`;
  return `Too many attempts. Please wait ${wait} and try again.`;
}

/**
 * The form state for an error a service threw. Next's own control-flow errors (redirect, notFound)
 * are rethrown; domain errors become messages; anything else is logged and shown as a generic failure.
 * `fieldMap` renames a service's field (e.g. `password`) to the form's input name.
 */
export function errorState(error: unknown, values?: Record<string, string>, fieldMap: Record<string, string> = {}): FormState {
  unstable_rethrow(error);
  if (error instanceof RateLimitError) return formError(waitMessage(error.retryAfterSeconds), values);
  if (error instanceof DomainError && error.code !== "INTERNAL_ERROR" && error.code !== "SERVICE_UNAVAILABLE") {
    const details = error.details as { fieldErrors?: Record<string, string[]> } | undefined;
    if (error.code === "VALIDATION_ERROR" && details?.fieldErrors) {
      const fieldErrors: FieldErrors = {};
      for (const [field, messages] of Object.entries(details.fieldErrors)) fieldErrors[fieldMap[field] ?? field] = messages;
      return formError(Object.keys(fieldErrors).length > 0 ? CHECK_FIELDS : error.message, values, fieldErrors);
    }
    return formError(error.message, values);
  }
  if (error instanceof DomainError && error.code === "SERVICE_UNAVAILABLE") return formError(error.message, values);
  // The database unreachable, or a deadlock that rolled the form's transaction back: as the API's 503.
  const mapped = toDomainError(error);
  if (mapped.code === "SERVICE_UNAVAILABLE") {
    log.warn("form action answered: database unavailable or a transaction conflict", describeError(error));
    return formError(mapped.message, values);
  }
  log.error("form action failed", describeError(error));
  return formError("Something went wrong on our side. Please try again in a moment.", values);
}
