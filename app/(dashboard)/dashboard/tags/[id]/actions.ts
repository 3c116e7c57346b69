"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { errorState, formError, formSuccess } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { addPhoto, deletePhoto, deviceProfileInput, generalProfileInput, MAX_PHOTO_BYTES, petProfileInput, putDeviceProfile, putPetProfile, putTravelProfile, putVehicleProfile, saveGeneralProfile, setPrimaryPhoto, travelProfileInput, vehicleProfileInput } from "@/lib/services/profiles";
import { releaseTag, setTagStatus, setTagStatusInput } from "@/lib/services/tags";
import { tagParams, tagPath } from "./tag-form";

type FormAction = (previous: FormState, formData: FormData) => Promise<FormState>;

/** PATCH /tags/:id (type) and PATCH /profiles/:tagId (everything else), in one transaction. */
export const saveGeneralProfileAction: FormAction = action(
  {
    auth: "user",
    returnTo: tagPath,
    params: tagParams,
    input: generalProfileInput,
    values: ["itemName", "tagType", "description", "ownerName", "contactEmail", "contactPhone", "visibility"],
  },
  async ({ ctx, params, input, values }) => {
    await saveGeneralProfile(ctx, params.tagId, input);
    revalidatePath(`/dashboard/tags/${params.tagId}`);
    return formSuccess("The profile is saved.", values);
  },
);

/** PUT /profiles/:tagId/{pet|vehicle|device|travel}; saving it may complete the profile (→ ACTIVE). */
function typedProfileAction<S extends z.ZodObject>(schema: S, save: (ctx: never, id: string, body: z.output<S>) => Promise<unknown>, label: string): FormAction {
  return action({ auth: "user", returnTo: tagPath, params: tagParams, input: schema, values: Object.keys(schema.shape) }, async ({ ctx, params, input, values }) => {
    await save(ctx as never, params.tagId, input as z.output<S>);
    revalidatePath(`/dashboard/tags/${params.tagId}`);
    revalidatePath("/dashboard/tags");
    return formSuccess(`The ${label} profile is saved.`, values);
  });
}

const typedForms: Record<string, FormAction> = {
  PET: typedProfileAction(petProfileInput, putPetProfile, "pet"),
  VEHICLE: typedProfileAction(vehicleProfileInput, putVehicleProfile, "vehicle"),
  DEVICE: typedProfileAction(deviceProfileInput, putDeviceProfile, "device"),
  TRAVEL: typedProfileAction(travelProfileInput, putTravelProfile, "luggage"),
};

/** The typed profile form names its kind in `profileType`. */
export async function saveTypedProfileAction(previous: FormState, formData: FormData): Promise<FormState> {
  const form = Object.hasOwn(typedForms, formText(formData, "profileType")) ? typedForms[formText(formData, "profileType")] : undefined;
  if (!form) return formError("This kind of profile is not known.");
  return form(previous, formData);
}

/** PATCH /tags/:id/status, answered with a redirect so the page shows the new status and its moves. */
export const changeStatusAction: FormAction = action(
  {
    auth: "user",
    returnTo: tagPath,
    // The status comes from the button pressed: an unknown one names no move (not found, like a bad id).
    params: tagParams.extend({ status: setTagStatusInput.shape.status }),
    input: setTagStatusInput.pick({ lostMessage: true }),
    values: ["lostMessage"],
  },
  async ({ ctx, params, input }) => {
    const withMessage = params.status === "LOST" || params.status === "STOLEN";
    await setTagStatus(ctx, params.tagId, { status: params.status, lostMessage: withMessage ? (input.lostMessage ?? null) : undefined });
    const path = `/dashboard/tags/${params.tagId}`;
    revalidatePath(path);
    revalidatePath("/dashboard/tags");
    redirect(`${path}?notice=status-${params.status}`);
  },
);

/** DELETE /tags/:id, after the owner ticked the confirmation. */
export const releaseTagAction: FormAction = action(
  {
    auth: "user",
    returnTo: tagPath,
    params: tagParams,
    input: z.object({ confirm: z.boolean().refine(Boolean, "Tick the box to confirm that you want to release this tag.") }),
    values: () => ({}),
  },
  async ({ ctx, params }) => {
    await releaseTag(ctx, params.tagId);
    revalidatePath("/dashboard/tags");
    redirect("/dashboard/tags?notice=released");
  },
);

const photoFieldMap = { bytes: "file", photo: "file" };

/** POST /profiles/:tagId/photos from the page's multipart form: field `file`, optional `isPrimary`. */
export const addPhotoAction: FormAction = action(
  {
    auth: "user",
    returnTo: tagPath,
    params: tagParams,
    values: ["isPrimary"],
    fieldMap: photoFieldMap,
    onError: (error, values) => {
      const state = errorState(error, values, photoFieldMap);
      // The service's complaint about the image itself belongs under the file input.
      if (state.status === "error" && !state.fieldErrors && state.message && !/something went wrong/i.test(state.message)) {
        return formError("Check the fields marked below.", values, { file: [state.message] });
      }
      return state;
    },
  },
  async ({ ctx, params, formData, values }) => {
    const file = formData.get("file");
    if (!(file instanceof File) || file.size === 0) return formError("Check the fields marked below.", values, { file: ["Choose a photo (JPEG, PNG or WebP)."] });
    if (file.size > MAX_PHOTO_BYTES) return formError("Check the fields marked below.", values, { file: ["The photo is larger than 5 MB. Choose a smaller one."] });
    await addPhoto(ctx, params.tagId, { bytes: Buffer.from(await file.arrayBuffer()) }, values?.isPrimary === "true");
    revalidatePath(`/dashboard/tags/${params.tagId}`);
    return formSuccess("The photo was added.", { isPrimary: "" });
  },
);

const photoParams = tagParams.extend({ photoId: z.uuid() });
const photoMissing = whenNotFound((formData) => `${tagPath(formData)}?notice=photo-missing#photos-heading`);
const refreshTag = (formData: FormData) => revalidatePath(tagPath(formData));

/** PATCH /profiles/:tagId/photos/:photoId { isPrimary: true }, answered with a redirect back to the tag. */
export const makePrimaryPhotoAction: (formData: FormData) => Promise<void> = rowAction(
  { auth: "user", returnTo: tagPath, params: photoParams, onError: photoMissing, revalidate: refreshTag },
  async ({ ctx, params, formData }) => {
    await setPrimaryPhoto(ctx, params.tagId, params.photoId);
    return `${tagPath(formData)}?notice=photo-primary#photos-heading`;
  },
);

/** DELETE /profiles/:tagId/photos/:photoId, answered with a redirect back to the tag. */
export const deletePhotoAction: (formData: FormData) => Promise<void> = rowAction(
  { auth: "user", returnTo: tagPath, params: photoParams, onError: photoMissing, revalidate: refreshTag },
  async ({ ctx, params, formData }) => {
    await deletePhoto(ctx, params.tagId, params.photoId);
    return `${tagPath(formData)}?notice=photo-deleted#photos-heading`;
  },
);
