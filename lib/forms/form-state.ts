import { withoutControlCharacters } from "@/lib/validation/control-characters";

/**
 * What a form's server action returns to the page (through React's useActionState): a status, an
 * optional message for the whole form, per-field messages keyed by the input's `name`, and the
 * non-secret values to put back into the fields after a failed submission. Passwords are never echoed.
 */
export type FieldErrors = Partial<Record<string, string[]>>;

export interface FormState {
  status: "idle" | "error" | "success";
  message?: string;
  fieldErrors?: FieldErrors;
  values?: Record<string, string>;
}

export const idleFormState: FormState = { status: "idle" };

/** The first message for a field, or undefined. */
export function fieldError(state: FormState | undefined, name: string): string[] | undefined {
  const errors = state?.fieldErrors?.[name];
  return errors && errors.length > 0 ? errors : undefined;
}

/** Errors for names that are not inputs of the form (e.g. a link's token): the form shows them in its alert. */
export function errorsOutsideFields(state: FormState, fieldNames: Iterable<string>): string[] {
  const names = new Set(fieldNames);
  return Object.entries(state.fieldErrors ?? {})
    .filter(([name]) => !names.has(name))
    .flatMap(([, messages]) => messages ?? []);
}

/**
 * A text field of a submitted form. Control characters (NUL would fail the query) are dropped: no one
 * types them into a form, so only a forged post carries them, and the API refuses them outright.
 */
export function formText(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? withoutControlCharacters(value) : "";
}
