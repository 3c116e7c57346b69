"use client";

import { useActionState, useRef } from "react";
import { FieldErrorList, fieldDescriptionIds, inputClass } from "@/components/forms/field";
import { FormResultAlerts } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { PointPicker } from "@/components/maps/point-picker";
import { SPECIES_CHOICES } from "./species-choices";
import { errorsOutsideFields, fieldError, idleFormState, type FormState } from "@/lib/forms/form-state";


export interface WatchAreaValues {
  latitude: number;
  longitude: number;
  radiusKm: number;
  species: string | null;
}

const FIELDS = ["latitude", "longitude", "radiusKm", "species"];

/**
 * "Watch my area for lost pets": the place on the point picker, the radius (drawn around it as it is
 * typed) and the species. A plain form: without JavaScript the picker is two number fields.
 */
export function WatchAreaForm({ action, area }: { action: (previous: FormState, formData: FormData) => Promise<FormState>; area: WatchAreaValues | null }) {
  const [state, formAction] = useActionState(action, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusOnResult(formRef, state, { focusSuccess: true });
  const values = state.values;
  const number = (name: string, fallback: number | undefined) => {
    const value = values?.[name];
    const parsed = value === undefined || value === "" ? Number.NaN : Number(value);
    return Number.isFinite(parsed) ? parsed : fallback;
  };
  const latitude = number("latitude", area?.latitude);
  const longitude = number("longitude", area?.longitude);
  const initial = latitude !== undefined && longitude !== undefined ? { latitude, longitude } : null;
  // React resets a form after its action: fields drawn again from the answer's values keep what was sent.
  const drawn = `${state.status}-${state.message ?? ""}-${JSON.stringify(values ?? {})}`;
  const radiusErrors = fieldError(state, "radiusKm");
  const speciesErrors = fieldError(state, "species");

  return (
    <form ref={formRef} action={formAction} aria-label="Watch my area for lost pets" className="flex flex-col gap-5" noValidate>
      <FormResultAlerts state={state} otherErrors={state.status === "error" ? errorsOutsideFields(state, FIELDS) : []} />
      <PointPicker
        // A new saved point (or a failed save's) re-seeds the picker.
        key={`picker-${drawn}-${initial ? `${initial.latitude},${initial.longitude}` : "none"}`}
        label="Your area: your home, or the place to watch around"
        hint="Only you see it. It is kept to within about 100 m, and people who lose a pet never see it."
        initial={initial}
        radiusInputId="watch-radius"
        errors={{ latitude: fieldError(state, "latitude"), longitude: fieldError(state, "longitude") }}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-1.5">
          <label htmlFor="watch-radius" className="text-sm font-semibold text-ink">
            Radius in km
          </label>
          <p id="watch-radius-hint" className="text-sm text-muted">
            From 1 to 50 km.
          </p>
          <FieldErrorList id="watch-radius-error" errors={radiusErrors} />
          <input
            key={`radius-${drawn}`}
            id="watch-radius"
            name="radiusKm"
            type="number"
            inputMode="decimal"
            min={1}
            max={50}
            step="any"
            required
            defaultValue={values?.radiusKm ?? String(area?.radiusKm ?? 3)}
            aria-invalid={radiusErrors ? true : undefined}
            aria-describedby={fieldDescriptionIds("watch-radius", true, Boolean(radiusErrors))}
            className={inputClass}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="watch-species" className="text-sm font-semibold text-ink">
            Which pets
          </label>
          <p id="watch-species-hint" className="text-sm text-muted">
            Hear of every lost pet, or only of one kind.
          </p>
          <FieldErrorList id="watch-species-error" errors={speciesErrors} />
          <select
            key={`species-${drawn}`}
            id="watch-species"
            name="species"
            defaultValue={values?.species ?? area?.species ?? ""}
            aria-invalid={speciesErrors ? true : undefined}
            aria-describedby={fieldDescriptionIds("watch-species", true, Boolean(speciesErrors))}
            className={inputClass}
          >
            {SPECIES_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div>
        <SubmitButton pendingLabel="Saving…">{area ? "Save my area" : "Start watching"}</SubmitButton>
      </div>
    </form>
  );
}
