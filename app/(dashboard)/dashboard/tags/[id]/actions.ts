"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { errorState, formError, formSuccess } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { profileEndpoints } from "@/lib/http/endpoints/profiles";
import { tagEndpoints } from "@/lib/http/endpoints/tags";
import { vehicleEndpoints } from "@/lib/http/endpoints/vehicles";
import {
  addPhoto,
  deletePhoto,
  deviceProfileInput,
  generalProfileInput,
  MAX_PHOTO_BYTES,
  petProfileInput,
  profilePatchSchema,
  saveTagDetails,
  setPrimaryPhoto,
  travelProfileInput,
  vehicleProfileInput,
  type TypedDetails,
} from "@/lib/services/profiles";
import { formInput, readField } from "@/lib/forms/form-input";
import { saveLostModeWithRelay } from "@/lib/services/finder";
import { createRewardInput, lostModeInput } from "@/lib/services/rewards";
import { releaseTag, setTagStatusInput, tagStatusSchema } from "@/lib/services/tags";
import { reportVehicleStolen, setTagStatus } from "@/lib/services/vehicles";
import { tagParams, tagPath } from "./tag-form";

type FormAction = (previous: FormState, formData: FormData) => Promise<FormState>;

/** The typed fields each kind of tag adds to the one details form (a pet's name is the item name). */
const typedInputs = {
  GENERAL: null,
  PET: petProfileInput.omit({ petName: true }),
  VEHICLE: vehicleProfileInput,
  DEVICE: deviceProfileInput,
  TRAVEL: travelProfileInput,
} as const;
type DetailsKind = keyof typeof typedInputs;

/**
 * The one form names its item: an empty name is refused here (the API's PATCH may leave it out). Its
 * emergency checkbox is always on the form, and an unticked box is not sent: absent means off.
 */
const detailsGeneralInput = generalProfileInput.extend({ itemName: profilePatchSchema.shape.itemName.unwrap(), emergencyVisible: z.boolean("Must be true or false.").default(false) });

function detailsAction(kind: DetailsKind): FormAction {
  const typedInput = typedInputs[kind];
  const input = z.object({ general: detailsGeneralInput, typed: (typedInput ?? z.object({})).nullable() });
  const generalNames = Object.keys(detailsGeneralInput.shape);
  const typedNames = typedInput ? Object.keys(typedInput.shape) : [];
  return action(
    {
      auth: "user",
      returnTo: tagPath,
      params: tagParams,
      input,
      // The typed fields belong to the kind shown; after a change of type they are not read (nor required).
      read: (formData) => {
        const general = formInput(detailsGeneralInput, formData) as { tagType?: unknown };
        return { general, typed: typedInput && general.tagType === kind ? formInput(typedInput, formData) : null };
      },
      fieldMap: Object.fromEntries([...generalNames.map((name) => [`general.${name}`, name]), ...typedNames.map((name) => [`typed.${name}`, name])]),
      values: [...generalNames, ...typedNames],
    },
    async ({ ctx, params, input, values }) => {
      const { general, typed } = input;
      const details = kind === "GENERAL" || !typed ? null : ({ kind, body: kind === "PET" ? { ...typed, petName: general.itemName } : typed } as TypedDetails);
      await saveTagDetails(ctx, params.tagId, general, details);
      revalidatePath(`/dashboard/tags/${params.tagId}`);
      revalidatePath("/dashboard/tags");
      const changedType = general.tagType !== kind;
      return formSuccess(changedType ? "Saved. Now fill in the details of the new type below." : "The details are saved.", values);
    },
  );
}

const detailsForms: Record<DetailsKind, FormAction> = {
  GENERAL: detailsAction("GENERAL"),
  PET: detailsAction("PET"),
  VEHICLE: detailsAction("VEHICLE"),
  DEVICE: detailsAction("DEVICE"),
  TRAVEL: detailsAction("TRAVEL"),
};

/**
 * The tag page's one details form: type, profile and the typed details of the kind shown (`profileType`),
 * saved together in one transaction (saveTagDetails). Plain action(): the API splits this across PATCH /tags/:id,
 * PATCH /profiles/:tagId and PUT /profiles/:tagId/<type>; no endpoint saves them together.
 */
export async function saveTagDetailsAction(previous: FormState, formData: FormData): Promise<FormState> {
  const kind = formText(formData, "profileType");
  const form = Object.hasOwn(detailsForms, kind) ? detailsForms[kind as DetailsKind] : undefined;
  if (!form) return formError("This kind of tag is not known.");
  return form(previous, formData);
}

/** The move a button of the page's status control carries, and the message for finders of the stolen report. */
const statusFormInput = setTagStatusInput.extend({ status: z.enum(tagStatusSchema.options, "Choose a new status.") });

/**
 * PATCH /tags/:id/status from the tag page's one status control (a button per move, the stolen report's
 * form), answered with a redirect so the page shows the new status and its moves. A refused move is
 * answered on the form.
 */
export const changeStatusAction: FormAction = action.for(
  tagEndpoints.setStatus,
  { fields: { id: "tagId" }, returnTo: tagPath, input: statusFormInput, values: ["status", "lostMessage"] },
  async ({ ctx, params, input }) => {
    const withMessage = input.status === "LOST" || input.status === "STOLEN";
    await setTagStatus(ctx, params.id, { status: input.status, lostMessage: withMessage ? (input.lostMessage ?? null) : undefined });
    const path = `/dashboard/tags/${params.id}`;
    revalidatePath(path);
    revalidatePath("/dashboard/tags");
    redirect(`${path}?notice=status-${input.status}`);
  },
);

/** Lost mode's reward fields, named as the reward endpoint's body. */
const rewardFieldMap = { "reward.amount": "amount", "reward.currency": "currency", "reward.description": "description" };

/**
 * Lost mode's one form: the message for finders and the reward, saved together by saveLostMode (turning lost
 * mode on, or changing what it shows). The reward is asked for when its amount or note is filled in; left
 * empty, none is offered. Any invalid field is answered with everything typed kept, and nothing saved.
 * Ticked, "Let finders call or text me through the relay" turns the tag's relay on in the same transaction.
 * Plain action(): no endpoint saves the message and the reward together (the API takes them separately).
 */
/** Lost mode's form adds the relay offer: a box, shown only with a verified phone (docs/relay.md). */
const lostModeFormInput = lostModeInput.extend({ relay: z.boolean().default(false) });

export const saveLostModeAction: FormAction = action(
  {
    auth: "user",
    returnTo: tagPath,
    params: tagParams,
    input: lostModeFormInput,
    read: (formData) => {
      const reward = formInput(createRewardInput, formData);
      const asked = (reward.amount !== undefined && reward.amount !== "") || (reward.description !== undefined && reward.description !== null);
      return { lostMessage: readField(formData, "lostMessage", lostModeInput.shape.lostMessage), reward: asked ? reward : null, relay: formText(formData, "relay") === "true" };
    },
    fieldMap: rewardFieldMap,
    values: ["lostMessage", "amount", "currency", "description", "relay"],
  },
  async ({ ctx, params, input }) => {
    const { relay, ...lostMode } = input;
    const result = await saveLostModeWithRelay(ctx, params.tagId, lostMode, { relay });
    const path = `/dashboard/tags/${params.tagId}`;
    revalidatePath(path);
    revalidatePath("/dashboard/tags");
    if (result.reward === "created" || result.reward === "changed") revalidatePath("/dashboard/rewards");
    const notice = result.relayTurnedOn
      ? result.turnedOn
        ? "lost-on-relay"
        : "lost-saved-relay"
      : result.turnedOn
        ? result.reward === "created"
          ? "lost-on-reward"
          : "status-LOST"
        : result.reward === "created"
          ? "reward-offered"
          : "lost-saved";
    redirect(`${path}?notice=${notice}`);
  },
);

/** POST /vehicles/:tagId/report-stolen: a vehicle's stolen report, with its police report reference. */
export const reportStolenAction: FormAction = action.for(
  vehicleEndpoints.reportStolen,
  { returnTo: tagPath, values: ["policeReportRef", "lostMessage"] },
  async ({ ctx, params, input }) => {
    await reportVehicleStolen(ctx, params.tagId, input);
    const path = `/dashboard/tags/${params.tagId}`;
    revalidatePath(path);
    revalidatePath("/dashboard/tags");
    redirect(`${path}?notice=status-STOLEN`);
  },
);

/** DELETE /tags/:id, after the owner ticked the confirmation (the form's own input: the endpoint has no body). */
export const releaseTagAction: FormAction = action.for(
  tagEndpoints.release,
  {
    fields: { id: "tagId" },
    returnTo: tagPath,
    input: z.object({ confirm: z.boolean().refine(Boolean, "Tick the box to confirm that you want to release this tag.") }),
    values: () => ({}),
  },
  async ({ ctx, params }) => {
    await releaseTag(ctx, params.id);
    revalidatePath("/dashboard/tags");
    redirect("/dashboard/tags?notice=released");
  },
);

const photoFieldMap = { bytes: "file", photo: "file" };

/** POST /profiles/:tagId/photos from the page's multipart form: field `file`, optional `isPrimary`. */
export const addPhotoAction: FormAction = action.for(
  profileEndpoints.addPhoto,
  {
    returnTo: tagPath,
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

const photoMissing = whenNotFound((formData) => `${tagPath(formData)}?notice=photo-missing#photos-heading`);
const refreshTag = (formData: FormData) => revalidatePath(tagPath(formData));

/** PATCH /profiles/:tagId/photos/:photoId { isPrimary: true }, answered with a redirect back to the tag. */
export const makePrimaryPhotoAction: (formData: FormData) => Promise<void> = rowAction.for(
  profileEndpoints.setPrimaryPhoto,
  // The button is the body: it sends only the photo's ids.
  { returnTo: tagPath, read: () => ({ isPrimary: true }), onError: photoMissing, revalidate: refreshTag },
  async ({ ctx, params, formData }) => {
    await setPrimaryPhoto(ctx, params.tagId, params.photoId);
    return `${tagPath(formData)}?notice=photo-primary#photos-heading`;
  },
);

/** DELETE /profiles/:tagId/photos/:photoId, answered with a redirect back to the tag. */
export const deletePhotoAction: (formData: FormData) => Promise<void> = rowAction.for(
  profileEndpoints.deletePhoto,
  { returnTo: tagPath, onError: photoMissing, revalidate: refreshTag },
  async ({ ctx, params, formData }) => {
    await deletePhoto(ctx, params.tagId, params.photoId);
    return `${tagPath(formData)}?notice=photo-deleted#photos-heading`;
  },
);
