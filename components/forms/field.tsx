import type { InputHTMLAttributes, ReactNode, Ref, TextareaHTMLAttributes } from "react";

export const inputClass =
  "min-h-11 w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-base text-ink placeholder:text-slate-600 aria-invalid:border-danger-700 aria-invalid:bg-danger-50 read-only:bg-canvas";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "children">;

export interface TextFieldProps extends InputProps {
  id: string;
  name: string;
  label: ReactNode;
  /** Help shown under the label and read with the field (aria-describedby). */
  hint?: ReactNode;
  /** Messages for this field; they are tied to the input with aria-describedby and set aria-invalid. */
  errors?: string[];
  /** Adds "(optional)" to the label. */
  optional?: boolean;
  ref?: Ref<HTMLInputElement>;
  /** Classes added to the input itself (className goes on the wrapper). */
  inputClassName?: string;
}

export function fieldDescriptionIds(id: string, hasHint: boolean, hasErrors: boolean): string | undefined {
  return [hasHint ? `${id}-hint` : null, hasErrors ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

/**
 * A labelled input with its hint and errors. Plain semantic HTML, so it renders in server and client
 * components alike; the error list sits between the label and the input, where it is seen first.
 */
export function TextField({ id, name, label, hint, errors, optional, className, inputClassName, ...input }: TextFieldProps) {
  const hasErrors = Boolean(errors && errors.length > 0);
  return (
    <div className={`flex flex-col gap-1.5 ${className ?? ""}`}>
      <FieldHeading id={id} label={label} hint={hint} errors={errors} optional={optional} />
      <input
        id={id}
        name={name}
        aria-invalid={hasErrors || undefined}
        aria-describedby={fieldDescriptionIds(id, Boolean(hint), hasErrors)}
        className={inputClassName ? `${inputClass} ${inputClassName}` : inputClass}
        {...input}
      />
    </div>
  );
}

/**
 * What stands above every field's control: its label (with "(optional)"), its hint and its errors, with the
 * ids the control's aria-describedby names (fieldDescriptionIds).
 */
function FieldHeading({ id, label, hint, errors, optional }: { id: string; label: ReactNode; hint?: ReactNode; errors?: string[]; optional?: boolean }) {
  return (
    <>
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
        {optional ? <span className="font-normal text-muted"> (optional)</span> : null}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <FieldErrorList id={`${id}-error`} errors={errors} />
    </>
  );
}

/** The messages of one field, with an id for aria-describedby. Renders nothing without errors. */
export function FieldErrorList({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors || errors.length === 0) return null;
  return (
    <ul id={id} className="flex flex-col gap-0.5 text-sm font-medium text-danger-700">
      {errors.map((message) => (
        <li key={message} className="flex items-start gap-1.5">
          <ErrorMark />
          <span>{message}</span>
        </li>
      ))}
    </ul>
  );
}

function ErrorMark() {
  return (
    <svg viewBox="0 0 20 20" className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" focusable="false" fill="currentColor">
      <path d="M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17zm-.9 4.3h1.8l-.2 6h-1.4zm.9 8.9a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2z" />
    </svg>
  );
}

export interface SelectOption {
  value: string;
  label: string;
}

/** A labelled <select> laid out like TextField, for filter and option forms (plain HTML, no JavaScript needed). */
export function SelectField({ id, label, name, defaultValue, options, errors }: { id: string; label: string; name: string; defaultValue: string; options: readonly SelectOption[]; errors?: string[] }) {
  return (
    <div className="flex grow flex-col gap-1.5">
      <FieldHeading id={id} label={label} errors={errors} />
      <select id={id} name={name} defaultValue={defaultValue} className={inputClass} aria-invalid={errors ? true : undefined} aria-describedby={fieldDescriptionIds(id, false, Boolean(errors))}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "name" | "onChange" | "children"> {
  id: string;
  name: string;
  label: string;
  hint?: ReactNode;
  errors?: string[];
  /** Monospace, for Markdown and other source text. */
  mono?: boolean;
  onValueChange?: (value: string) => void;
}

/** A labelled <textarea> with its hint and errors, described for screen readers like TextField. */
export function TextAreaField({ id, name, label, hint, errors, mono = false, onValueChange, className, ...textarea }: TextAreaFieldProps) {
  return (
    <div className="flex flex-col gap-1.5">
      <FieldHeading id={id} label={label} hint={hint} errors={errors} />
      <textarea
        id={id}
        name={name}
        className={`${inputClass}${mono ? " font-mono text-sm" : ""}${className ? ` ${className}` : ""}`}
        aria-invalid={errors ? true : undefined}
        aria-describedby={fieldDescriptionIds(id, Boolean(hint), Boolean(errors))}
        onChange={onValueChange ? (event) => onValueChange(event.target.value) : undefined}
        {...textarea}
      />
    </div>
  );
}
