"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { errorState, formError, formSuccess, invalidFields } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { requireUserContext } from "@/lib/auth/page-context";
import { updateProfile } from "@/lib/services/profiles/general";
import { MAX_PHOTO_BYTES } from "@/lib/services/profiles/image";
import { addPhoto, deletePhoto, setPrimaryPhoto } from "@/lib/services/profiles/photos";
import { deviceProfileInput, petProfileInput, profilePatchSchema, travelProfileInput, vehicleProfileInput } from "@/lib/services/profiles/schemas";
import { putDeviceProfile, putPetProfile, putTravelProfile, putVehicleProfile } from "@/lib/services/profiles/typed";
import { NotFoundError } from "@/lib/services/errors";
import { releaseTag, setTagStatus, updateTag } from "@/lib/services/tags/inventory";
import { tagStatusSchema, tagTypeSchema } from "@/lib/services/tags/records";

/** The tag id every form here sends; a malformed one reads as a missing tag. */
async function tagContext(formData: FormData) {
  const id = z.uuid().safeParse(formText(formData, "tagId"));
  const path = id.success ? `/dashboard/tags/${id.data}` : "/dashboard/tags";
  const ctx = await requireUserContext(path);
  return { ctx, id: id.success ? id.data : null, path };
}

function textValues(formData: FormData, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, formText(formData, name)]));
}

const generalFields = ["itemName", "tagType", "description", "ownerName", "contactEmail", "contactPhone", "visibility"] as const;

/** PATCH /tags/:id (type) and PATCH /profiles/:tagId (everything else). */
export async function saveGeneralProfileAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const { ctx, id, path } = await tagContext(formData);
  const values = textValues(formData, generalFields);
  if (!id) return errorState(new NotFoundError(), values);
  const type = tagTypeSchema.safeParse(values.tagType);
  const parsed = profilePatchSchema.safeParse({ ...values, itemName: values.itemName?.trim() ? values.itemName : undefined });
  if (!parsed.success || !type.success) {
    if (parsed.success) return formError("Check the fields marked below.", values, { tagType: ["Choose a type."] });
    return invalidFields(parsed.error, values);
  }
  try {
    await updateTag(ctx, id, { tagType: type.data });
    await updateProfile(ctx, id, parsed.data);
  } catch (error) {
    return errorState(error, values);
  }
  revalidatePath(path);
  return formSuccess("The profile is saved.", values);
}

const typedForms = {
  PET: { schema: petProfileInput, fields: ["petName", "species", "breed", "color", "microchip", "vetInfo"], save: putPetProfile, label: "pet" },
  VEHICLE: { schema: vehicleProfileInput, fields: ["make", "model", "year", "color", "licensePlate", "vin"], save: putVehicleProfile, label: "vehicle" },
  DEVICE: { schema: deviceProfileInput, fields: ["deviceType", "brand", "model", "serialNumber", "color"], save: putDeviceProfile, label: "device" },
  TRAVEL: { schema: travelProfileInput, fields: ["luggageType", "color", "brand", "flightNumber", "destination"], save: putTravelProfile, label: "luggage" },
} as const;

const yearInput = z.union([z.literal("").transform(() => null), z.string().regex(/^\d{1,4}$/, "Must be a whole number.").transform(Number)]);

/** PUT /profiles/:tagId/{pet|vehicle|device|travel}; saving it may complete the profile (→ ACTIVE). */
export async function saveTypedProfileAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const { ctx, id, path } = await tagContext(formData);
  const kind = z.enum(["PET", "VEHICLE", "DEVICE", "TRAVEL"]).safeParse(formText(formData, "profileType"));
  if (!kind.success) return formError("This kind of profile is not known.");
  const form = typedForms[kind.data];
  const values = textValues(formData, form.fields);
  if (!id) return errorState(new NotFoundError(), values);
  const input: Record<string, unknown> = { ...values };
  if (kind.data === "VEHICLE") {
    const year = yearInput.safeParse(values.year?.trim() ?? "");
    if (!year.success) return formError("Check the fields marked below.", values, { year: ["Must be a whole number."] });
    input.year = year.data;
  }
  const parsed = form.schema.safeParse(input);
  if (!parsed.success) return invalidFields(parsed.error, values);
  try {
    // Each schema matches its own save function; the union loses that pairing.
    await (form.save as (ctx: unknown, id: string, body: unknown) => Promise<unknown>)(ctx, id, parsed.data);
  } catch (error) {
    return errorState(error, values);
  }
  revalidatePath(path);
  revalidatePath("/dashboard/tags");
  return formSuccess(`The ${form.label} profile is saved.`, values);
}

const statusForm = z.object({ lostMessage: z.string().trim().max(500, "At most 500 characters.") });

/** PATCH /tags/:id/status, answered with a redirect so the page shows the new status and its moves. */
export async function changeStatusAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const { ctx, id, path } = await tagContext(formData);
  const values = { lostMessage: formText(formData, "lostMessage") };
  const status = tagStatusSchema.safeParse(formText(formData, "status"));
  if (!id || !status.success) return errorState(new NotFoundError(), values);
  const message = statusForm.safeParse(values);
  if (!message.success) return invalidFields(message.error, values);
  const withMessage = status.data === "LOST" || status.data === "STOLEN";
  try {
    await setTagStatus(ctx, id, { status: status.data, lostMessage: withMessage ? message.data.lostMessage || null : undefined });
  } catch (error) {
    return errorState(error, values);
  }
  revalidatePath(path);
  revalidatePath("/dashboard/tags");
  redirect(`${path}?notice=status-${status.data}`);
}

/** DELETE /tags/:id, after the owner ticked the confirmation. */
export async function releaseTagAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const { ctx, id } = await tagContext(formData);
  if (formText(formData, "confirm") !== "true") return formError("Check the fields marked below.", {}, { confirm: ["Tick the box to confirm that you want to release this tag."] });
  if (!id) return errorState(new NotFoundError());
  try {
    await releaseTag(ctx, id);
  } catch (error) {
    return errorState(error);
  }
  revalidatePath("/dashboard/tags");
  redirect("/dashboard/tags?notice=released");
}

/** POST /profiles/:tagId/photos from the page's multipart form: field `file`, optional `isPrimary`. */
export async function addPhotoAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const { ctx, id, path } = await tagContext(formData);
  const values = { isPrimary: formText(formData, "isPrimary") };
  if (!id) return errorState(new NotFoundError(), values);
  const file = formData.get("file");
  if (!(file instanceof File) || file.size === 0) return formError("Check the fields marked below.", values, { file: ["Choose a photo (JPEG, PNG or WebP)."] });
  if (file.size > MAX_PHOTO_BYTES) return formError("Check the fields marked below.", values, { file: ["The photo is larger than 5 MB. Choose a smaller one."] });
  try {
    await addPhoto(ctx, id, { bytes: Buffer.from(await file.arrayBuffer()) }, values.isPrimary === "true");
  } catch (error) {
    const state = errorState(error, values, { bytes: "file", photo: "file" });
    // The service's complaint about the image itself belongs under the file input.
    if (state.status === "error" && !state.fieldErrors && state.message && !/something went wrong/i.test(state.message)) {
      return formError("Check the fields marked below.", values, { file: [state.message] });
    }
    return state;
  }
  revalidatePath(path);
  return formSuccess("The photo was added.", { isPrimary: "" });
}

/** PATCH /profiles/:tagId/photos/:photoId { isPrimary: true }, answered with a redirect back to the tag. */
export async function makePrimaryPhotoAction(formData: FormData): Promise<void> {
  const { ctx, id, path } = await tagContext(formData);
  const photoId = z.uuid().safeParse(formText(formData, "photoId"));
  let notice = "photo-primary";
  try {
    if (!id || !photoId.success) throw new NotFoundError();
    await setPrimaryPhoto(ctx, id, photoId.data);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    notice = "photo-missing";
  }
  revalidatePath(path);
  redirect(`${path}?notice=${notice}#photos-heading`);
}

/** DELETE /profiles/:tagId/photos/:photoId, answered with a redirect back to the tag. */
export async function deletePhotoAction(formData: FormData): Promise<void> {
  const { ctx, id, path } = await tagContext(formData);
  const photoId = z.uuid().safeParse(formText(formData, "photoId"));
  let notice = "photo-deleted";
  try {
    if (!id || !photoId.success) throw new NotFoundError();
    await deletePhoto(ctx, id, photoId.data);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    notice = "photo-missing";
  }
  revalidatePath(path);
  redirect(`${path}?notice=${notice}#photos-heading`);
}
