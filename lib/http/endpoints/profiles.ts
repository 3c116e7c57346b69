import { z } from "zod";
import { messageSchema } from "@/lib/services/auth";
import { deviceProfileInput, deviceProfileSchema, petProfileInput, petProfileSchema, photoSchema, profilePatchSchema, profileSchema, travelProfileInput, travelProfileSchema, vehicleProfileInput, vehicleProfileSchema } from "@/lib/services/profiles";
import { defineEndpoint } from "../endpoint";
import { uuidParam } from "../params";

const tags = ["Profiles"];
const tagParams = z.object({ tagId: uuidParam() });
const photoParams = z.object({ tagId: uuidParam(), photoId: uuidParam() });

/** The multipart body of a photo upload: a 5 MB file plus the form's own bytes. */
export const PHOTO_UPLOAD_BODY_LIMIT_BYTES = 6 * 1024 * 1024;

const typedDescription = (type: string) =>
  `Creates or replaces the tag's ${type} profile (fields left out are cleared), sets the tag's type to ${type} and, when the tag is PENDING_SETUP with an item name, activates it. Missing required fields: 400 per field.`;

export const profileEndpoints = {
  get: defineEndpoint({
    operationId: "getProfile",
    method: "GET",
    path: "/api/v1/profiles/{tagId}",
    summary: "Get a tag's profile",
    description: "General fields, photos and the saved profile of the tag's type. Another user's tag is 404.",
    tags,
    auth: "user",
    params: tagParams,
    response: profileSchema,
  }),
  update: defineEndpoint({
    operationId: "updateProfile",
    method: "PATCH",
    path: "/api/v1/profiles/{tagId}",
    summary: "Update a tag's general profile",
    description:
      "All fields optional; `null` or an empty string clears a text field. A PENDING_SETUP tag whose profile becomes complete turns ACTIVE. `emergencyVisible` chooses whether this tag's finder page offers your emergency information (GET /scan/{encryptedId}/emergency answers 404 when off); until set it is off for PET tags and on for the others.",

    tags,
    auth: "user",
    params: tagParams,
    body: profilePatchSchema,
    response: profileSchema,
  }),
  putPet: defineEndpoint({
    operationId: "savePetProfile",
    method: "PUT",
    path: "/api/v1/profiles/{tagId}/pet",
    summary: "Save the pet profile",
    description: typedDescription("PET"),
    tags,
    auth: "user",
    params: tagParams,
    body: petProfileInput,
    response: petProfileSchema,
  }),
  putVehicle: defineEndpoint({
    operationId: "saveVehicleProfile",
    method: "PUT",
    path: "/api/v1/profiles/{tagId}/vehicle",
    summary: "Save the vehicle profile",
    description: `${typedDescription("VEHICLE")} \`vin\`: 17 letters and digits without I, O or Q (spaces and hyphens are dropped, at most 25 characters as sent), stored upper case; \`year\`: 1886 to next year. A VIN is claimed by one vehicle tag at a time (any status but DEACTIVATED): a VIN another live tag holds is 409 CONFLICT, without saying whose it is, and both tags are flagged for review.`,
    tags,
    auth: "user",
    params: tagParams,
    body: vehicleProfileInput,
    response: vehicleProfileSchema,
    errors: ["CONFLICT"],
  }),
  putDevice: defineEndpoint({
    operationId: "saveDeviceProfile",
    method: "PUT",
    path: "/api/v1/profiles/{tagId}/device",
    summary: "Save the device profile",
    description: typedDescription("DEVICE"),
    tags,
    auth: "user",
    params: tagParams,
    body: deviceProfileInput,
    response: deviceProfileSchema,
  }),
  putTravel: defineEndpoint({
    operationId: "saveTravelProfile",
    method: "PUT",
    path: "/api/v1/profiles/{tagId}/travel",
    summary: "Save the travel profile",
    description: typedDescription("TRAVEL"),
    tags,
    auth: "user",
    params: tagParams,
    body: travelProfileInput,
    response: travelProfileSchema,
  }),
  addPhoto: defineEndpoint({
    operationId: "uploadPhoto",
    method: "POST",
    path: "/api/v1/profiles/{tagId}/photos",
    summary: "Upload a photo",
    description:
      "multipart/form-data with field `file` (JPEG, PNG or WebP, recognised by content, at most 5 MB) and optional `isPrimary` (`true` or `false`). The image is re-encoded without metadata (no EXIF, no GPS), upright, at most 2048 px on its longest side. The first photo becomes primary; `isPrimary=true` moves the primary here. Wrong type or over 5 MB: 400 on `file`; a request body over 6 MB: 413; an 11th photo: 422.",
    tags,
    auth: "user",
    params: tagParams,
    successStatus: 201,
    bodyLimitBytes: PHOTO_UPLOAD_BODY_LIMIT_BYTES,
    formBody: z.object({
      file: z.string().meta({ format: "binary", description: "JPEG, PNG or WebP, at most 5 MB" }),
      isPrimary: z.enum(["true", "false"]).optional(),
    }),
    response: photoSchema,
    errors: ["PAYLOAD_TOO_LARGE", "UNPROCESSABLE_ENTITY"],
  }),
  deletePhotoByQuery: defineEndpoint({
    operationId: "deletePhotoByQuery",
    method: "DELETE",
    path: "/api/v1/profiles/{tagId}/photos",
    summary: "Delete a photo (photoId in the query)",
    description: "Same as DELETE /api/v1/profiles/{tagId}/photos/{photoId}. A missing photoId is 400; an unknown or malformed one 404.",
    tags,
    auth: "user",
    params: tagParams,
    query: z.object({ photoId: z.string({ error: "Required." }).min(1, "Required.") }),
    response: messageSchema,
  }),
  setPrimaryPhoto: defineEndpoint({
    operationId: "setPrimaryPhoto",
    method: "PATCH",
    path: "/api/v1/profiles/{tagId}/photos/{photoId}",
    summary: "Make a photo the primary one",
    description: "Only `isPrimary: true` is accepted; the previous primary photo stops being primary.",
    tags,
    auth: "user",
    params: photoParams,
    body: z.object({ isPrimary: z.literal(true) }),
    response: photoSchema,
  }),
  deletePhoto: defineEndpoint({
    operationId: "deletePhoto",
    method: "DELETE",
    path: "/api/v1/profiles/{tagId}/photos/{photoId}",
    summary: "Delete a photo",
    description: "When the primary photo is deleted, the oldest remaining photo becomes primary.",
    tags,
    auth: "user",
    params: photoParams,
    response: messageSchema,
  }),
};
