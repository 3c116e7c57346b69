"use client";

import { useActionState, useId, useRef } from "react";
import { FieldErrorList, fieldDescriptionIds, inputClass } from "@/components/forms/field";
import { FormAlert } from "@/components/forms/form-alert";
import { fieldError, idleFormState, type FormState } from "@/lib/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import type { NotificationPreferences } from "@/lib/services/notifications";
import { savePreferencesAction } from "./actions";
import { emailSwitches, pushSwitches } from "./switches";

type Action = (previous: FormState, formData: FormData) => Promise<FormState>;

/**
 * The notification settings as one form. Switches are native checkboxes with role="switch" (they
 * submit without JavaScript and announce "on"/"off"); then the owner's time zone ("" follows the
 * browser: `browserZone`, from its cookie, when known), which dates on the pages and the quiet hours
 * (two times) use.
 */
export function PreferencesForm({ preferences, timeZones, browserZone }: { preferences: NotificationPreferences; timeZones: string[]; browserZone: string | null }) {
  const [state, formAction] = useActionState<FormState, FormData>(savePreferencesAction as Action, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  useFocusOnResult(formRef, state, { focusSuccess: true });
  const values = state.values;
  const checked = (name: string, stored: boolean) => (values ? values[name] === "on" : stored);
  const shownZone = values ? (values.timeZone ?? "") : (preferences.timeZone ?? "");

  return (
    <form ref={formRef} action={formAction} aria-label="Notification settings" className="flex flex-col gap-6" noValidate>
      {state.status === "error" ? <FormAlert tone="error" title={state.message ?? "That did not work."} /> : null}
      {state.status === "success" && state.message ? <FormAlert tone="success" title={state.message} /> : null}

      <SwitchGroup legend="E-mail me when" items={emailSwitches} idPrefix={`${id}-email`} isChecked={(name, key) => checked(name, preferences.email[key])} />
      <SwitchGroup
        legend="Send a push notification when"
        hint="Push goes to every device where you enabled it below."
        items={pushSwitches}
        idPrefix={`${id}-push`}
        isChecked={(name, key) => checked(name, preferences.push[key])}
      />

      <div className="flex flex-col gap-1.5 rounded-lg border border-line p-4">
        {browserZone ? <input type="hidden" name="browserZone" value={browserZone} /> : null}
        <label htmlFor={`${id}-zone`} className="text-base font-semibold text-ink">
          Time zone
        </label>
        <p id={`${id}-zone-hint`} className="text-sm text-muted">
          Dates and times on your dashboard are shown in it, and quiet hours follow it. Until you choose one, this browser&apos;s zone is used.
        </p>
        <FieldErrorList id={`${id}-zone-error`} errors={fieldError(state, "timeZone")} />
        <select
          // React does not move a select to a new defaultValue, and resets the form after each submit: a
          // new key per shown value makes it show what was submitted (or saved), not what was first loaded.
          key={shownZone}
          id={`${id}-zone`}
          name="timeZone"
          defaultValue={shownZone}
          aria-invalid={fieldError(state, "timeZone") ? true : undefined}
          aria-describedby={fieldDescriptionIds(`${id}-zone`, true, Boolean(fieldError(state, "timeZone")))}
          className={`${inputClass} sm:max-w-md`}
        >
          <option value="">{browserZone ? `This browser's zone (${browserZone.replaceAll("_", " ")})` : "This browser's zone"}</option>
          {timeZones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll("_", " ")}
            </option>
          ))}
        </select>
      </div>

      <fieldset className="flex flex-col gap-4 rounded-lg border border-line p-4">
        <legend className="px-1 text-base font-semibold text-ink">Quiet hours</legend>
        <p className="text-sm text-muted">
          When on, e-mail and push wait until quiet hours end, in the time zone above (with none chosen, this browser&apos;s is saved for them). Urgent alerts (a lost tag scanned, emergency access) still come at once.
        </p>
        <SwitchRow
          id={`${id}-quiet`}
          name="quietHours"
          label="Pause e-mail and push during quiet hours"
          defaultChecked={values ? values.quietHours === "on" : preferences.quietHours !== null}
        />
        <div className="grid gap-4 sm:grid-cols-2 md:max-w-md">
          <TimeInput id={`${id}-start`} name="quietStart" label="From" defaultValue={values?.quietStart ?? preferences.quietHours?.start ?? "22:00"} errors={fieldError(state, "quietStart")} />
          <TimeInput id={`${id}-end`} name="quietEnd" label="Until" defaultValue={values?.quietEnd ?? preferences.quietHours?.end ?? "07:00"} errors={fieldError(state, "quietEnd")} />
        </div>
        <FieldErrorList id={`${id}-quiet-error`} errors={fieldError(state, "quietHours")} />
      </fieldset>

      <div>
        <SubmitButton pendingLabel="Saving…" className="w-full sm:w-auto">
          Save settings
        </SubmitButton>
      </div>
    </form>
  );
}

function SwitchGroup<K extends string>({
  legend,
  hint,
  items,
  idPrefix,
  isChecked,
}: {
  legend: string;
  hint?: string;
  items: readonly { name: string; label: string; key: K }[];
  idPrefix: string;
  isChecked: (name: string, key: K) => boolean;
}) {
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-line p-4">
      <legend className="px-1 text-base font-semibold text-ink">{legend}</legend>
      {hint ? <p className="text-sm text-muted">{hint}</p> : null}
      {items.map((item) => (
        <SwitchRow key={item.name} id={`${idPrefix}-${item.name}`} name={item.name} label={item.label} defaultChecked={isChecked(item.name, item.key)} />
      ))}
    </fieldset>
  );
}

/** A checkbox drawn as a switch; the native input stays focusable and carries role="switch". */
function SwitchRow({ id, name, label, defaultChecked }: { id: string; name: string; label: string; defaultChecked: boolean }) {
  return (
    <div className="flex items-center justify-between gap-4">
      <label htmlFor={id} className="min-w-0 text-sm text-ink">
        {label}
      </label>
      <span className="relative inline-flex shrink-0 items-center">
        <input
          id={id}
          name={name}
          type="checkbox"
          role="switch"
          defaultChecked={defaultChecked}
          className="peer h-7 w-12 cursor-pointer appearance-none rounded-full bg-slate-500 transition-colors checked:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        />
        <span aria-hidden="true" className="pointer-events-none absolute left-1 h-5 w-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5" />
      </span>
    </div>
  );
}

function TimeInput({ id, name, label, defaultValue, errors }: { id: string; name: string; label: string; defaultValue: string; errors?: string[] }) {
  const hasErrors = Boolean(errors && errors.length > 0);
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
      </label>
      <FieldErrorList id={`${id}-error`} errors={errors} />
      <input
        id={id}
        name={name}
        type="time"
        defaultValue={defaultValue}
        aria-invalid={hasErrors || undefined}
        aria-describedby={fieldDescriptionIds(id, false, hasErrors)}
        className={`${inputClass}`}
      />
    </div>
  );
}
