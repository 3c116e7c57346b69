"use client";

import { useActionState, useId, useRef, type InputHTMLAttributes, type ReactNode } from "react";
import { FormResultAlerts } from "./form-alert";
import { errorsOutsideFields, fieldError, idleFormState, type FormState } from "@/lib/forms/form-state";
import { TextField } from "./field";
import { SubmitButton, type ButtonVariant } from "./submit-button";
import { useFocusOnResult } from "./use-focus-on-result";

export type FormAction = (previous: FormState, formData: FormData) => Promise<FormState>;

export interface FieldSpec {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "tel" | "date" | "search";
  autoComplete?: string;
  hint?: ReactNode;
  optional?: boolean;
  /** Initial value; after a failed submission the value the action echoes back wins. */
  defaultValue?: string;
  inputMode?: InputHTMLAttributes<HTMLInputElement>["inputMode"];
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  spellCheck?: boolean;
  autoCapitalize?: string;
  min?: string;
}

export interface ActionFormProps {
  action: FormAction;
  fields?: FieldSpec[];
  /** Extra values the action needs (an id, a token), sent as hidden inputs. */
  hidden?: Record<string, string>;
  submitLabel: ReactNode;
  pendingLabel?: ReactNode;
  variant?: ButtonVariant;
  /** Shown above the fields. */
  intro?: ReactNode;
  /** Shown instead of the form's fields once the action succeeds (the success message is shown too). */
  successContent?: ReactNode;
  /** Keep the fields after a success (for edit forms); otherwise the form shows only the success. */
  keepFieldsOnSuccess?: boolean;
  /** A label for the <form> (aria-label), for several small forms on one page. */
  formLabel?: string;
  className?: string;
  /** Lays the submit button beside the fields on wider screens (a one-field form). */
  inline?: boolean;
}

/**
 * A form whose fields are described as data and whose server action returns a FormState: field
 * errors appear under their labels (aria-describedby), the whole-form message above the fields, and
 * focus moves to the first problem. Works without JavaScript too (the server renders the result).
 */
export function ActionForm({
  action,
  fields = [],
  hidden,
  submitLabel,
  pendingLabel,
  variant = "primary",
  intro,
  successContent,
  keepFieldsOnSuccess = false,
  formLabel,
  className,
  inline = false,
}: ActionFormProps) {
  const [state, formAction] = useActionState(action, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  const baseId = useId();
  useFocusOnResult(formRef, state, { focusSuccess: true });

  const otherErrors = errorsOutsideFields(state, fields.map((field) => field.name));
  const succeeded = state.status === "success";
  const showFields = !succeeded || keepFieldsOnSuccess;

  return (
    <form ref={formRef} action={formAction} aria-label={formLabel} className={`flex flex-col gap-5 ${className ?? ""}`} noValidate>
      <FormResultAlerts state={state} otherErrors={otherErrors} />
      {succeeded && successContent ? successContent : null}
      {showFields ? (
        <>
          {intro}
          {hidden ? Object.entries(hidden).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />) : null}
          <div className={inline ? "flex flex-col gap-4 sm:flex-row sm:items-end" : "flex flex-col gap-5"}>
            {fields.map(({ name, defaultValue, ...field }) => (
              <TextField
                key={name}
                id={`${baseId}-${name}`}
                name={name}
                className={inline ? "grow" : undefined}
                errors={fieldError(state, name)}
                defaultValue={field.type === "password" ? undefined : (state.values?.[name] ?? defaultValue)}
                {...field}
              />
            ))}
            <div>
              <SubmitButton variant={variant} pendingLabel={pendingLabel} className={inline ? "w-full sm:w-auto" : "w-full sm:w-auto"}>
                {submitLabel}
              </SubmitButton>
            </div>
          </div>
        </>
      ) : null}
    </form>
  );
}
