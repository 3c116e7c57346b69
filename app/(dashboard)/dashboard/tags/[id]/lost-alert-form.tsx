"use client";

import { useActionState, useRef, useState, type ReactNode } from "react";
import { FieldErrorList, fieldDescriptionIds, inputClass } from "@/components/forms/field";
import { FormResultAlerts } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { PointPicker, type PickedPoint } from "@/components/maps/point-picker";
import { errorsOutsideFields, fieldError, idleFormState, type FormState } from "@/lib/forms/form-state";

const FIELDS = ["latitude", "longitude", "lastSeenAt", "radiusKm", "note", "tagId", "timeZone"];

/**
 * "Alert people nearby", folded under its summary (a native <details>, so it opens without JavaScript) to
 * keep the tag page short on a phone; it stays open once the form has answered. The form: where the pet was
 * last seen (the point picker, with the radius drawn around it), when (the owner's wall clock, `timeZone`),
 * how far to alert, a note. `children`: the tag's alerts so far, under the form.
 */
export function LostAlertSection({
  action,
  tagId,
  timeZone,
  now,
  maxRadiusKm,
  around,
  summary,
  intro,
  blocked,
  children,
}: {
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
  tagId: string;
  timeZone: string;
  /** Now on the owner's wall clock ("2026-03-12T14:05"): the time field's default and its latest value. */
  now: string;
  maxRadiusKm: number;
  /** Where the map opens: where the pet was last placed, or the owner's area. */
  around: PickedPoint | null;
  summary: ReactNode;
  intro: ReactNode;
  /** Why no alert can be sent now (the day's three were sent), instead of the form. */
  blocked?: ReactNode;
  children?: ReactNode;
}) {
  const [state, formAction] = useActionState(action, idleFormState);
  // Open once the form has answered (with or without JavaScript); otherwise as the owner leaves it.
  const [open, setOpen] = useState(state.status !== "idle");
  const [answered, setAnswered] = useState(state);
  if (answered !== state) {
    setAnswered(state);
    if (state.status !== "idle") setOpen(true);
  }
  const formRef = useRef<HTMLFormElement>(null);
  useFocusOnResult(formRef, state, { focusSuccess: true });
  const values = state.status === "error" ? state.values : undefined;
  const number = (name: string) => {
    const parsed = Number(values?.[name] ?? Number.NaN);
    return values?.[name] && Number.isFinite(parsed) ? parsed : undefined;
  };
  const latitude = number("latitude");
  const longitude = number("longitude");
  // React resets a form after its action: fields drawn again from the answer keep what was sent, or start afresh after a success.
  const drawn = `${state.status}-${state.message ?? ""}-${JSON.stringify(values ?? {})}`;
  const errorsOf = (name: string) => fieldError(state, name);
  const field = (name: string, label: string, hint: string | undefined, control: (describedBy: string | undefined, invalid: boolean) => ReactNode) => {
    const id = `lost-alert-${name}`;
    const errors = errorsOf(name);
    return (
      <div className="flex flex-col gap-1.5">
        <label htmlFor={id} className="text-sm font-semibold text-ink">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-sm text-muted">
            {hint}
          </p>
        ) : null}
        <FieldErrorList id={`${id}-error`} errors={errors} />
        {control(fieldDescriptionIds(id, Boolean(hint), Boolean(errors)), Boolean(errors))}
      </div>
    );
  };

  return (
    <details
      id="lost-alert"
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      className="rounded-lg border border-line px-4 py-2"
      data-testid="lost-alert-section"
    >
      <summary className="min-h-10 cursor-pointer content-center font-semibold text-ink">{summary}</summary>
      <div className="mt-2 mb-3 flex flex-col gap-5">
        {intro}
        {blocked && state.status !== "success" ? (
          blocked
        ) : (
          <form ref={formRef} action={formAction} aria-label="Alert people nearby" className="flex flex-col gap-5" noValidate>
            <FormResultAlerts state={state} otherErrors={state.status === "error" ? errorsOutsideFields(state, FIELDS) : []} />
            <input type="hidden" name="tagId" value={tagId} />
            <input type="hidden" name="timeZone" value={timeZone} />
            <PointPicker
              key={`picker-${drawn}`}
              label="Where was it last seen?"
              hint="Neighbours see the place only to within about 500 m."
              initial={latitude !== undefined && longitude !== undefined ? { latitude, longitude } : null}
              around={around}
              radiusInputId="lost-alert-radiusKm"
              errors={{ latitude: errorsOf("latitude"), longitude: errorsOf("longitude") }}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              {field("lastSeenAt", "When", `Your time zone: ${timeZone}.`, (describedBy, invalid) => (
                <input
                  key={`when-${drawn}`}
                  id="lost-alert-lastSeenAt"
                  name="lastSeenAt"
                  type="datetime-local"
                  max={now}
                  defaultValue={values?.lastSeenAt ?? now}
                  aria-invalid={invalid || undefined}
                  aria-describedby={describedBy}
                  className={inputClass}
                />
              ))}
              {field("radiusKm", "Alert people within (km)", `From 1 to ${maxRadiusKm} km.`, (describedBy, invalid) => (
                <input
                  key={`radius-${drawn}`}
                  id="lost-alert-radiusKm"
                  name="radiusKm"
                  type="number"
                  inputMode="decimal"
                  min={1}
                  max={maxRadiusKm}
                  step="any"
                  defaultValue={values?.radiusKm ?? "5"}
                  aria-invalid={invalid || undefined}
                  aria-describedby={describedBy}
                  className={inputClass}
                />
              ))}
            </div>
            {field("note", "Note for the neighbours (optional)", "Shown on the alert's public page, e.g. “Shy: please don't chase her, message me.”", (describedBy, invalid) => (
              <textarea
                key={`note-${drawn}`}
                id="lost-alert-note"
                name="note"
                rows={2}
                maxLength={500}
                defaultValue={values?.note ?? ""}
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy}
                className={inputClass}
              />
            ))}
            <div>
              <SubmitButton variant="danger" pendingLabel="Sending…">
                Alert people nearby
              </SubmitButton>
            </div>
          </form>
        )}
        {children}
      </div>
    </details>
  );
}
