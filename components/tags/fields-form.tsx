"use client";

import { useActionState, useId, useRef, type ReactNode } from "react";
import type { FormAction } from "@/components/forms/action-form";
import { FieldErrorList, fieldDescriptionIds, inputClass, TextField } from "@/components/forms/field";
import { FormResultAlerts } from "@/components/forms/form-alert";
import { errorsOutsideFields, fieldError, idleFormState } from "@/lib/forms/form-state";
import { SubmitButton, type ButtonVariant } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";

interface BaseField {
  name: string;
  label: string;
  hint?: ReactNode;
  optional?: boolean;
  defaultValue?: string;
}

/** The field kinds the tag forms need beyond ActionForm's text inputs. */
export type TagFieldSpec =
  | (BaseField & { kind?: "text" | "email" | "tel" | "number" | "date"; autoComplete?: string; maxLength?: number; min?: string; max?: string; step?: string; inputMode?: "text" | "numeric" | "decimal" | "email" | "tel"; autoCapitalize?: string; spellCheck?: boolean })
  | (BaseField & { kind: "textarea"; rows?: number; maxLength?: number; autoCapitalize?: string; spellCheck?: boolean })
  | (BaseField & { kind: "select"; options: { value: string; label: string }[] })
  | (BaseField & { kind: "radio"; options: { value: string; label: string; description?: ReactNode }[] })
  | (BaseField & { kind: "file"; accept?: string })
  | (BaseField & { kind: "checkbox" });

/**
 * Fields shown together under a legend (their names, in the order `fields` lists them). `folded`: inside a
 * disclosure, which opens by itself when one of its fields has an error (also without JavaScript: the
 * answered page is rendered with it open). Inside a group, the fields sit two to a row and text areas span it.
 */
export interface FieldGroup {
  names: string[];
  legend: string;
  hint?: ReactNode;
  folded?: boolean;
}

export interface FieldsFormProps {
  action: FormAction;
  fields: TagFieldSpec[];
  hidden?: Record<string, string>;
  submitLabel: ReactNode;
  pendingLabel?: ReactNode;
  variant?: ButtonVariant;
  formLabel?: string;
  intro?: ReactNode;
  /** Keep the fields after a success (edit forms); otherwise only the success message remains. */
  keepFieldsOnSuccess?: boolean;
  /** Lays the fields out in two columns on wider screens. */
  columns?: 1 | 2;
  /** Fields shown together under a legend, or folded away (FieldGroup). */
  groups?: FieldGroup[];
  className?: string;
  /** The submit button's classes (default: full width on a phone, its own width from `sm`). */
  submitClassName?: string;
}

/**
 * ActionForm's behaviour (errors under labels, focus on the first problem, works without JavaScript)
 * for forms with selects, text areas, checkboxes and file inputs.
 */
export function FieldsForm({
  action,
  fields,
  hidden,
  submitLabel,
  pendingLabel,
  variant = "primary",
  formLabel,
  intro,
  keepFieldsOnSuccess = true,
  columns = 1,
  groups = [],
  className,
  submitClassName = "w-full sm:w-auto",
}: FieldsFormProps) {
  const [state, formAction] = useActionState(action, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  const baseId = useId();
  useFocusOnResult(formRef, state, { focusSuccess: true });
  const otherErrors = errorsOutsideFields(state, fields.map((field) => field.name));
  const succeeded = state.status === "success";
  const showFields = !succeeded || keepFieldsOnSuccess;
  const hasFile = fields.some((field) => field.kind === "file");

  return (
    <form
      ref={formRef}
      action={formAction}
      aria-label={formLabel}
      encType={hasFile ? "multipart/form-data" : undefined}
      className={`flex flex-col gap-5 ${className ?? ""}`}
      noValidate
    >
      <FormResultAlerts state={state} otherErrors={otherErrors} />
      {showFields ? (
        <>
          {intro}
          {hidden ? Object.entries(hidden).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />) : null}
          {fields.length > 0 ? (
            <div className={columns === 2 ? "grid gap-5 sm:grid-cols-2" : "flex flex-col gap-5"}>
              {fields.map((field) => {
                const group = groups.find((candidate) => candidate.names.includes(field.name));
                const input = (wide: string) => <FieldInput key={field.name} id={`${baseId}-${field.name}`} field={field} errors={fieldError(state, field.name)} value={state.values?.[field.name] ?? field.defaultValue} wide={wide} />;
                if (!group) return input(columns === 2 && field.kind === "textarea" ? "sm:col-span-2" : "");
                // A group is drawn where its first field stands.
                if (fields.find((candidate) => group.names.includes(candidate.name)) !== field) return null;
                const members = fields.filter((candidate) => group.names.includes(candidate.name));
                const hasErrors = members.some((member) => fieldError(state, member.name)?.length);
                const body = (
                  <div className="grid grid-cols-2 gap-4">
                    {members.map((member) => (
                      <FieldInput
                        key={member.name}
                        id={`${baseId}-${member.name}`}
                        field={member}
                        errors={fieldError(state, member.name)}
                        value={state.values?.[member.name] ?? member.defaultValue}
                        wide={member.kind === "textarea" || member.kind === "checkbox" ? "col-span-2" : ""}
                      />
                    ))}
                  </div>
                );
                const hint = group.hint ? <div className="text-sm text-muted">{group.hint}</div> : null;
                const span = columns === 2 ? "sm:col-span-2" : "";
                return group.folded ? (
                  <details key={`group-${group.legend}`} open={hasErrors || undefined} className={`rounded-lg border border-line px-4 py-2 ${span}`}>
                    <summary className="min-h-10 cursor-pointer content-center font-semibold text-ink">{group.legend}</summary>
                    <fieldset className="mt-2 mb-2 flex flex-col gap-4">
                      <legend className="sr-only">{group.legend}</legend>
                      {hint}
                      {body}
                    </fieldset>
                  </details>
                ) : (
                  <fieldset key={`group-${group.legend}`} className={`flex flex-col gap-4 rounded-lg border border-line p-4 ${span}`}>
                    <legend className="px-1 font-semibold text-ink">{group.legend}</legend>
                    {hint}
                    {body}
                  </fieldset>
                );
              })}
            </div>
          ) : null}
          <div>
            <SubmitButton variant={variant} pendingLabel={pendingLabel} className={submitClassName}>
              {submitLabel}
            </SubmitButton>
          </div>
        </>
      ) : null}
    </form>
  );
}

function Label({ id, field }: { id: string; field: TagFieldSpec }) {
  return (
    <label htmlFor={id} className="text-sm font-semibold text-ink">
      {field.label}
      {field.optional ? <span className="font-normal text-muted"> (optional)</span> : null}
    </label>
  );
}

/** One field; `wide`: the classes that widen it in its grid ("" for none). */
function FieldInput({ id, field, errors, value, wide }: { id: string; field: TagFieldSpec; errors?: string[]; value?: string; wide: string }) {
  const hasErrors = Boolean(errors?.length);
  const describedBy = fieldDescriptionIds(id, Boolean(field.hint), hasErrors);
  const hint = field.hint ? (
    <p id={`${id}-hint`} className="text-sm text-muted">
      {field.hint}
    </p>
  ) : null;

  switch (field.kind) {
    case "textarea":
      return (
        <div className={`flex flex-col gap-1.5 ${wide}`}>
          <Label id={id} field={field} />
          {hint}
          <FieldErrorList id={`${id}-error`} errors={errors} />
          <textarea
            id={id}
            name={field.name}
            rows={field.rows ?? 3}
            maxLength={field.maxLength}
            defaultValue={value}
            autoCapitalize={field.autoCapitalize}
            spellCheck={field.spellCheck}
            aria-invalid={hasErrors || undefined}
            aria-describedby={describedBy}
            className={inputClass}
          />
        </div>
      );
    case "select":
      return (
        <div className="flex flex-col gap-1.5">
          <Label id={id} field={field} />
          {hint}
          <FieldErrorList id={`${id}-error`} errors={errors} />
          {/*
            React updates a select's defaultValue only when it mounts, and resets the form to the defaults after
            every submission: keyed by the value, a choice echoed back after a failed save survives that reset.
          */}
          <select key={value ?? ""} id={id} name={field.name} defaultValue={value} aria-invalid={hasErrors || undefined} aria-describedby={describedBy} className={inputClass}>
            {field.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      );
    case "radio":
      // A fieldset: the legend names the choice, each option's meaning is read with it (aria-describedby).
      return (
        <fieldset className="flex flex-col gap-2" aria-describedby={describedBy}>
          <legend className="mb-1 text-sm font-semibold text-ink">
            {field.label}
            {field.optional ? <span className="font-normal text-muted"> (optional)</span> : null}
          </legend>
          {hint}
          <FieldErrorList id={`${id}-error`} errors={errors} />
          {field.options.map((option) => (
            <div key={option.value} className="flex items-start gap-3 rounded-lg border border-line p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
              <input
                key={`${option.value}-${value ?? ""}`}
                id={`${id}-${option.value}`}
                type="radio"
                name={field.name}
                value={option.value}
                defaultChecked={value === option.value}
                aria-describedby={option.description ? `${id}-${option.value}-meaning` : undefined}
                className="mt-0.5 h-6 w-6 shrink-0 accent-brand-700"
              />
              <div className="flex flex-col gap-0.5">
                <label htmlFor={`${id}-${option.value}`} className="font-semibold text-ink">
                  {option.label}
                </label>
                {option.description ? (
                  <p id={`${id}-${option.value}-meaning`} className="text-sm text-muted">
                    {option.description}
                  </p>
                ) : null}
              </div>
            </div>
          ))}
        </fieldset>
      );
    case "file":
      return (
        <div className="flex flex-col gap-1.5">
          <Label id={id} field={field} />
          {hint}
          <FieldErrorList id={`${id}-error`} errors={errors} />
          <input
            id={id}
            name={field.name}
            type="file"
            accept={field.accept}
            aria-invalid={hasErrors || undefined}
            aria-describedby={describedBy}
            className="min-h-11 w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-base text-ink file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:font-semibold file:text-brand-800"
          />
        </div>
      );
    case "checkbox":
      return (
        <div className={`flex flex-col gap-1.5 ${wide}`}>
          <FieldErrorList id={`${id}-error`} errors={errors} />
          <div className="flex items-start gap-3">
            <input
              id={id}
              name={field.name}
              type="checkbox"
              value="true"
              defaultChecked={value === "true"}
              aria-invalid={hasErrors || undefined}
              aria-describedby={describedBy}
              className="mt-0.5 h-6 w-6 shrink-0 accent-brand-700"
            />
            <div>
              <Label id={id} field={field} />
              {hint}
            </div>
          </div>
        </div>
      );
    default: {
      const { kind, name, label, hint: fieldHint, optional, defaultValue: _default, ...rest } = field;
      void _default;
      return (
        <TextField
          id={id}
          name={name}
          label={label}
          hint={fieldHint}
          optional={optional}
          errors={errors}
          type={kind ?? "text"}
          defaultValue={value}
          {...rest}
        />
      );
    }
  }
}
