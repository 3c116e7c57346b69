"use client";

import { useActionState, useId, useRef, type ReactNode } from "react";
import { FieldErrorList, fieldDescriptionIds, inputClass } from "@/components/forms/field";
import { FormResultAlerts } from "@/components/forms/form-alert";
import { fieldError, idleFormState, type FormState } from "@/lib/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";

export interface MessageFormField {
  name: string;
  label: string;
  hint?: string;
  kind: "textarea" | "text" | "email";
  optionalLabel?: string;
  maxLength: number;
  autoComplete?: string;
  required?: boolean;
  /** For codes: "characters"; spell checking is then off too. */
  autoCapitalize?: "characters";
}

/**
 * The finder's message forms (first contact, reply): labelled fields with hints and errors in the
 * finder's language, a plain <form> that posts without JavaScript, and focus moved to the first problem
 * when it has JavaScript. The labels come translated from the server page.
 */
export function MessageForm({
  action,
  fields,
  hidden,
  submitLabel,
  pendingLabel,
  formLabel,
  footer,
}: {
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
  fields: MessageFormField[];
  hidden?: Record<string, string>;
  submitLabel: string;
  pendingLabel: string;
  formLabel: string;
  footer?: ReactNode;
}) {
  const [state, formAction] = useActionState(action, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  const baseId = useId();
  useFocusOnResult(formRef, state, { focusSuccess: true });

  return (
    <form ref={formRef} action={formAction} aria-label={formLabel} className="flex flex-col gap-4" noValidate>
      <FormResultAlerts state={state} otherErrors={[]} />
      {hidden ? Object.entries(hidden).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />) : null}
      {fields.map((field) => {
        const id = `${baseId}-${field.name}`;
        const errors = fieldError(state, field.name);
        const describedBy = fieldDescriptionIds(id, Boolean(field.hint), Boolean(errors));
        const value = state.status === "success" ? undefined : state.values?.[field.name];
        const common = {
          id,
          name: field.name,
          maxLength: field.maxLength,
          required: field.required,
          autoCapitalize: field.autoCapitalize,
          spellCheck: field.autoCapitalize ? false : undefined,
          defaultValue: value,
          "aria-invalid": errors ? true : undefined,
          "aria-describedby": describedBy,
          className: inputClass,
        };
        return (
          <div key={`${field.name}-${state.status}-${state.message ?? ""}`} className="flex flex-col gap-1.5">
            <label htmlFor={id} className="text-sm font-semibold text-ink">
              {field.label}
              {field.optionalLabel ? <span className="font-normal text-muted"> ({field.optionalLabel})</span> : null}
            </label>
            {field.hint ? (
              <p id={`${id}-hint`} className="text-sm text-muted">
                {field.hint}
              </p>
            ) : null}
            <FieldErrorList id={`${id}-error`} errors={errors} />
            {field.kind === "textarea" ? (
              <textarea rows={4} {...common} />
            ) : (
              <input type={field.kind} autoComplete={field.autoComplete} inputMode={field.kind === "email" ? "email" : undefined} {...common} />
            )}
          </div>
        );
      })}
      <div>
        <SubmitButton pendingLabel={pendingLabel} className="w-full sm:w-auto">
          {submitLabel}
        </SubmitButton>
      </div>
      {footer}
    </form>
  );
}
