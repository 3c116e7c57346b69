"use client";

import { useActionState, useRef } from "react";
import { FieldErrorList, SelectField, TextAreaField, TextField, fieldDescriptionIds, inputClass } from "@/components/forms/field";
import { FormResultAlerts } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { PointPicker } from "@/components/maps/point-picker";
import { errorsOutsideFields, fieldError, idleFormState, type FormState } from "@/lib/forms/form-state";

type FormAction = (previous: FormState, formData: FormData) => Promise<FormState>;

const KIND_OPTIONS = [
  { value: "SHELTER", label: "Animal shelter" },
  { value: "VET", label: "Vet practice" },
  { value: "POLICE", label: "Police station" },
] as const;

export const FOUND_SPECIES_OPTIONS = [
  { value: "DOG", label: "Dog" },
  { value: "CAT", label: "Cat" },
  { value: "BIRD", label: "Bird" },
  { value: "RABBIT", label: "Rabbit" },
  { value: "OTHER", label: "Other animal" },
] as const;

/** A point the answer echoed back (a failed submission), so the picker keeps it. */
function echoedPoint(values: Record<string, string> | undefined): { latitude: number; longitude: number } | null {
  const latitude = Number(values?.latitude);
  const longitude = Number(values?.longitude);
  return values?.latitude && values.longitude && Number.isFinite(latitude) && Number.isFinite(longitude) ? { latitude, longitude } : null;
}

const APPLY_FIELDS = ["name", "kind", "address", "latitude", "longitude", "phone", "website"];

/** "Register your organisation": who and where it is; works without JavaScript (the picker becomes two number fields). */
export function ApplyOrganisationForm({ action }: { action: FormAction }) {
  const [state, formAction] = useActionState(action, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusOnResult(formRef, state, { focusSuccess: true });
  if (state.status === "success") return <FormResultAlerts state={state} otherErrors={[]} />;
  const values = state.values;
  // React resets a form after its action: fields drawn again from the answer's values keep what was sent.
  const drawn = `${state.status}-${JSON.stringify(values ?? {})}`;

  return (
    <form ref={formRef} action={formAction} aria-label="Register your organisation" className="flex flex-col gap-5" noValidate>
      <FormResultAlerts state={state} otherErrors={state.status === "error" ? errorsOutsideFields(state, APPLY_FIELDS) : []} />
      <TextField key={`name-${drawn}`} id="org-name" name="name" label="Name" autoComplete="organization" maxLength={100} defaultValue={values?.name} errors={fieldError(state, "name")} />
      <SelectField key={`kind-${drawn}`} id="org-kind" name="kind" label="Kind" defaultValue={values?.kind ?? "SHELTER"} options={KIND_OPTIONS} errors={fieldError(state, "kind")} />
      <TextAreaField key={`address-${drawn}`} id="org-address" name="address" label="Address" rows={2} maxLength={500} defaultValue={values?.address} errors={fieldError(state, "address")} />
      <PointPicker
        key={`picker-${drawn}`}
        label="Where your premises are"
        hint="You see the open lost-pet alerts around this place."
        initial={echoedPoint(values)}
        errors={{ latitude: fieldError(state, "latitude"), longitude: fieldError(state, "longitude") }}
      />
      <TextField
        key={`phone-${drawn}`}
        id="org-phone"
        name="phone"
        type="tel"
        label="Phone"
        hint="In international form, e.g. +44 20 7946 0958. Owners of matching lost pets see it."
        autoComplete="tel"
        maxLength={40}
        defaultValue={values?.phone}
        errors={fieldError(state, "phone")}
      />
      <TextField
        key={`website-${drawn}`}
        id="org-website"
        name="website"
        type="text"
        inputMode="url"
        label="Website"
        optional
        hint="Starting with https:// or http://."
        maxLength={300}
        defaultValue={values?.website}
        errors={fieldError(state, "website")}
      />
      <div>
        <SubmitButton pendingLabel="Sending…" className="w-full sm:w-auto">
          Apply
        </SubmitButton>
      </div>
    </form>
  );
}

const FOUND_FIELDS = ["species", "breed", "colour", "photo", "latitude", "longitude", "foundAt", "note"];

/**
 * "Report a found animal": what it is, a photo, where and when it was found, a note. Multipart for the
 * photo; without JavaScript the place is two number fields.
 */
export function FoundReportForm({ action, timeZone, now }: { action: FormAction; timeZone: string; now: string }) {
  const [state, formAction] = useActionState(action, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusOnResult(formRef, state, { focusSuccess: true });
  const values = state.status === "error" ? state.values : undefined;
  const drawn = `${state.status}-${state.message ?? ""}-${JSON.stringify(values ?? {})}`;
  const photoErrors = fieldError(state, "photo");
  const foundAtErrors = fieldError(state, "foundAt");

  return (
    <form ref={formRef} action={formAction} aria-label="Report a found animal" encType="multipart/form-data" className="flex flex-col gap-5" noValidate>
      <FormResultAlerts state={state} otherErrors={state.status === "error" ? errorsOutsideFields(state, FOUND_FIELDS) : []} />
      <input type="hidden" name="timeZone" value={timeZone} />
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField key={`species-${drawn}`} id="found-species" name="species" label="Animal" defaultValue={values?.species ?? "DOG"} options={FOUND_SPECIES_OPTIONS} errors={fieldError(state, "species")} />
        <TextField key={`breed-${drawn}`} id="found-breed" name="breed" label="Breed" optional maxLength={100} defaultValue={values?.breed} errors={fieldError(state, "breed")} />
        <TextField key={`colour-${drawn}`} id="found-colour" name="colour" label="Colour" optional maxLength={100} defaultValue={values?.colour} errors={fieldError(state, "colour")} />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="found-photo" className="text-sm font-semibold text-ink">
          Photo <span className="font-normal text-muted">(optional)</span>
        </label>
        <p id="found-photo-hint" className="text-sm text-muted">
          JPEG, PNG or WebP, at most 5 MB. Its location and camera details are removed.
        </p>
        <FieldErrorList id="found-photo-error" errors={photoErrors} />
        <input
          key={`photo-${drawn}`}
          id="found-photo"
          name="photo"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          aria-invalid={photoErrors ? true : undefined}
          aria-describedby={fieldDescriptionIds("found-photo", true, Boolean(photoErrors))}
          className={inputClass}
        />
      </div>
      <PointPicker
        key={`picker-${drawn}`}
        label="Where it was found"
        hint="Owners of matching lost pets see this place only to within about 500 m."
        initial={echoedPoint(values)}
        errors={{ latitude: fieldError(state, "latitude"), longitude: fieldError(state, "longitude") }}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor="found-at" className="text-sm font-semibold text-ink">
          When it was found
        </label>
        <FieldErrorList id="found-at-error" errors={foundAtErrors} />
        <input
          key={`found-at-${drawn}`}
          id="found-at"
          name="foundAt"
          type="datetime-local"
          required
          defaultValue={values?.foundAt ?? now}
          aria-invalid={foundAtErrors ? true : undefined}
          aria-describedby={fieldDescriptionIds("found-at", false, Boolean(foundAtErrors))}
          className={inputClass}
        />
      </div>
      <TextAreaField
        key={`note-${drawn}`}
        id="found-note"
        name="note"
        label="Note"
        hint="Where the animal is now and how to collect it; anything that tells it apart. At most 1000 characters."
        rows={3}
        maxLength={1000}
        defaultValue={values?.note}
        errors={fieldError(state, "note")}
      />
      <div>
        <SubmitButton pendingLabel="Filing…" className="w-full sm:w-auto">
          File the report
        </SubmitButton>
      </div>
    </form>
  );
}
