"use server";

import { revalidatePath } from "next/cache";
import { errorState, formError, formSuccess } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { readSignedNumber } from "@/lib/forms/signed-number";
import { organisationEndpoints } from "@/lib/http/endpoints/organisations";
import { canonicalTimeZone, instantOfLocalDateTime } from "@/lib/i18n/time-zones";
import { ConflictError, ForbiddenError } from "@/lib/services/errors";
import { applyForOrganisation, fileFoundReport, fileFoundReportInput, updateMyOrganisation } from "@/lib/services/organisations";
import { MAX_PHOTO_BYTES } from "@/lib/services/profiles";

const PATH = "/dashboard/organisation";

const text = (formData: FormData, name: string) => formText(formData, name);

/** POST /organisations from the application form: the premises on the point picker (or typed without JavaScript). */
export const applyOrganisationAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  organisationEndpoints.apply,
  {
    returnTo: PATH,
    read: (formData) => ({
      name: text(formData, "name"),
      kind: text(formData, "kind"),
      address: text(formData, "address"),
      latitude: readSignedNumber(formData, "latitude"),
      longitude: readSignedNumber(formData, "longitude"),
      phone: text(formData, "phone"),
      website: text(formData, "website"),
    }),
    values: ["name", "kind", "address", "latitude", "longitude", "phone", "website"],
    invalidMessage: "Check the fields marked below: the premises' place on the map (or its coordinates) is needed too.",
    onError: (error, values) => (error instanceof ConflictError ? formError("This account already has an organisation. Reload the page to see it.", values) : undefined),
  },
  async ({ ctx, input }) => {
    await applyForOrganisation(ctx, input);
    revalidatePath(PATH);
    return formSuccess("Thank you: your application is sent. An admin checks it, and you get an e-mail once it is verified.");
  },
);

/** PATCH /organisations/me from the settings form (radius, phone, website; a blank website clears it). */
export const updateOrganisationAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  organisationEndpoints.updateMe,
  {
    returnTo: PATH,
    read: (formData) => ({ watchRadiusKm: readSignedNumber(formData, "watchRadiusKm"), phone: text(formData, "phone"), website: text(formData, "website") || null }),
    values: ["watchRadiusKm", "phone", "website"],
  },
  async ({ ctx, input }) => {
    const organisation = await updateMyOrganisation(ctx, input);
    revalidatePath(PATH);
    return formSuccess("Saved.", { watchRadiusKm: String(organisation.watchRadiusKm), phone: organisation.phone, website: organisation.website ?? "" });
  },
);

const FOUND_VALUES = ["species", "breed", "colour", "latitude", "longitude", "foundAt", "note"] as const;

/** The datetime-local field on the wall clock of the zone the page showed it in (its hidden `timeZone`). */
function foundAt(formData: FormData): string {
  const value = text(formData, "foundAt").trim();
  const zone = canonicalTimeZone(text(formData, "timeZone")) ?? "UTC";
  return instantOfLocalDateTime(value, zone)?.toISOString() ?? value;
}

const photoFieldMap = { photo: "photo" };

/**
 * POST /organisations/found from the page's multipart form: the photo is the file input's bytes (the API
 * takes them as a data: URL), re-encoded by the same service verb.
 */
export const fileFoundReportAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  organisationEndpoints.fileFound,
  {
    returnTo: PATH,
    input: fileFoundReportInput.omit({ photo: true }),
    read: (formData) => ({
      species: text(formData, "species"),
      breed: text(formData, "breed"),
      colour: text(formData, "colour"),
      latitude: readSignedNumber(formData, "latitude"),
      longitude: readSignedNumber(formData, "longitude"),
      foundAt: foundAt(formData),
      note: text(formData, "note"),
    }),
    values: FOUND_VALUES,
    fieldMap: photoFieldMap,
    invalidMessage: "Check the fields marked below: where the animal was found is needed too.",
    onError: (error, values) => {
      if (error instanceof ForbiddenError) return formError(error.message, values);
      const state = errorState(error, values, photoFieldMap);
      return state.status === "error" && state.fieldErrors?.photo ? formError("Check the fields marked below.", values, state.fieldErrors) : undefined;
    },
  },
  async ({ ctx, input, formData, values }) => {
    const file = formData.get("photo");
    let photo: Buffer | null = null;
    if (file instanceof File && file.size > 0) {
      if (file.size > MAX_PHOTO_BYTES) return formError("Check the fields marked below.", values, { photo: ["The photo is larger than 5 MB. Choose a smaller one."] });
      photo = Buffer.from(await file.arrayBuffer());
    }
    const { matches } = await fileFoundReport(ctx, { ...input, photo });
    revalidatePath(PATH);
    const told = matches.length === 0 ? "No open alert matches it yet." : matches.length === 1 ? "It matches 1 lost pet: its owner is told now." : `It matches ${matches.length} lost pets: their owners are told now.`;
    return formSuccess(`Your report is filed. ${told}`);
  },
);
