import { z } from "zod";
import { tagTypeSchema, visibilitySchema } from "@/lib/services/tags";
import { canonicalVin, VIN_INPUT_MAX, VIN_MESSAGE, VIN_PATTERN } from "@/lib/services/vehicles";
import { contactEmailInput, contactPhoneInput, DESCRIPTION_MAX, NAME_MAX, optionalText, requiredText, SHORT_TEXT_MAX } from "@/lib/validation/text-fields";

// The string limits and text fields live in lib/validation/ (docs/decisions/0005-input-validation.md); the
// profiles index keeps offering them.
export { contactEmailInput, contactPhoneInput, DESCRIPTION_MAX, NAME_MAX, optionalText, requiredPhoneInput, requiredText, SHORT_TEXT_MAX } from "@/lib/validation/text-fields";

/** PATCH /profiles/:tagId: every field optional; unknown fields ignored. */
export const profilePatchSchema = z.object({
  itemName: z.string({ error: "Must be a string." }).trim().min(1, "Must not be empty.").max(NAME_MAX, `At most ${NAME_MAX} characters.`).optional(),
  description: optionalText(DESCRIPTION_MAX),
  ownerName: optionalText(NAME_MAX),
  contactEmail: contactEmailInput,
  contactPhone: contactPhoneInput,
  visibility: visibilitySchema.optional(),
  emergencyVisible: z
    .boolean("Must be true or false.")
    .optional()
    .meta({ description: "Whether this tag's finder page offers your emergency information. Until set, off for PET tags and on for the others." }),
});
export type ProfilePatch = z.output<typeof profilePatchSchema>;

/** The dashboard's general profile form: the tag's type (PATCH /tags/:id) with the profile (PATCH /profiles/:tagId), saved together. */
export const generalProfileInput = profilePatchSchema.extend({ tagType: z.enum(tagTypeSchema.options, "Choose a type.") });
export type GeneralProfileInput = z.output<typeof generalProfileInput>;

/**
 * Whether a tag's finder page offers its owner's emergency information: the owner's choice, else the
 * type's default. Off for PET tags: whoever finds a lost pet has no use for its owner's conditions and
 * contacts. On for the others, whose tag the owner may carry on themselves.
 */
export function emergencyVisibleFor(tagType: string, stored: boolean | null | undefined): boolean {
  return stored ?? tagType !== "PET";
}

/** A yes/no of a typed profile; left out means no (a PUT replaces the whole profile, as for its text fields). */
const flag = () => z.boolean("Must be true or false.").optional();

export const petProfileInput = z.object({
  petName: requiredText(NAME_MAX),
  species: requiredText(NAME_MAX),
  breed: optionalText(NAME_MAX),
  color: optionalText(NAME_MAX),
  microchip: optionalText(NAME_MAX),
  vetInfo: optionalText(SHORT_TEXT_MAX),
  size: optionalText(NAME_MAX),
  distinctiveMarks: optionalText(SHORT_TEXT_MAX),
  needsMedication: flag().meta({ description: "Kept for you; finders read it only with showNeedsMedication. Default false." }),
  showNeedsMedication: flag().meta({ description: "Whether finders read that the pet needs medication. Default false." }),
});

const firstCarYear = 1886;
export const vehicleProfileInput = z.object({
  make: requiredText(NAME_MAX),
  model: requiredText(NAME_MAX),
  year: z
    .int("Must be a whole number.")
    .min(firstCarYear, `Must be ${firstCarYear} or later.`)
    .refine((year) => year <= new Date().getUTCFullYear() + 1, "Must not be later than next year.")
    .nullable()
    .optional(),
  color: optionalText(NAME_MAX),
  licensePlate: optionalText(NAME_MAX),
  showPlate: flag().meta({ description: "Whether finders see the licence plate. Default false." }),
  vin: optionalText(VIN_INPUT_MAX)
    .transform((value) => (value == null ? value : canonicalVin(value)))
    .refine((value) => value == null || VIN_PATTERN.test(value), VIN_MESSAGE),
});

export const deviceProfileInput = z.object({
  deviceType: requiredText(NAME_MAX),
  brand: optionalText(NAME_MAX),
  model: optionalText(NAME_MAX),
  serialNumber: optionalText(NAME_MAX),
  color: optionalText(NAME_MAX),
});

export const travelProfileInput = z.object({
  luggageType: requiredText(NAME_MAX),
  color: optionalText(NAME_MAX),
  brand: optionalText(NAME_MAX),
  flightNumber: optionalText(NAME_MAX),
  destination: optionalText(NAME_MAX),
});

export type PetProfileInput = z.output<typeof petProfileInput>;
export type VehicleProfileInput = z.output<typeof vehicleProfileInput>;
export type DeviceProfileInput = z.output<typeof deviceProfileInput>;
export type TravelProfileInput = z.output<typeof travelProfileInput>;

// ---- responses ----

const nullableText = z.string().nullable();

export const petProfileSchema = z
  .object({
    tagId: z.uuid(),
    tagType: z.literal("PET"),
    petName: z.string(),
    species: z.string(),
    breed: nullableText,
    color: nullableText,
    microchip: nullableText,
    vetInfo: nullableText,
    size: nullableText,
    distinctiveMarks: nullableText,
    needsMedication: z.boolean(),
    showNeedsMedication: z.boolean().meta({ description: "Whether finders read that the pet needs medication (only when needsMedication)" }),
  })
  .meta({ id: "PetProfile" });
export const vehicleProfileSchema = z
  .object({
    tagId: z.uuid(),
    tagType: z.literal("VEHICLE"),
    make: z.string(),
    model: z.string(),
    year: z.int().nullable(),
    color: nullableText,
    licensePlate: nullableText,
    showPlate: z.boolean().meta({ description: "Whether finders see the licence plate" }),
    vin: nullableText.meta({ description: "Upper case" }),
  })
  .meta({ id: "VehicleProfile" });
export const deviceProfileSchema = z
  .object({ tagId: z.uuid(), tagType: z.literal("DEVICE"), deviceType: z.string(), brand: nullableText, model: nullableText, serialNumber: nullableText, color: nullableText })
  .meta({ id: "DeviceProfile" });
export const travelProfileSchema = z
  .object({ tagId: z.uuid(), tagType: z.literal("TRAVEL"), luggageType: z.string(), color: nullableText, brand: nullableText, flightNumber: nullableText, destination: nullableText })
  .meta({ id: "TravelProfile" });

export type PetProfile = z.infer<typeof petProfileSchema>;
export type VehicleProfile = z.infer<typeof vehicleProfileSchema>;
export type DeviceProfile = z.infer<typeof deviceProfileSchema>;
export type TravelProfile = z.infer<typeof travelProfileSchema>;
export type TypedProfile = PetProfile | VehicleProfile | DeviceProfile | TravelProfile;

export const photoSchema = z
  .object({ id: z.uuid(), url: z.string().meta({ description: "Served by the app: /api/photos/<id>", example: "/api/photos/5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11" }), isPrimary: z.boolean() })
  .meta({ id: "Photo" });
export type Photo = z.infer<typeof photoSchema>;

export const profileSchema = z
  .object({
    tagId: z.uuid(),
    itemName: nullableText,
    description: nullableText,
    ownerName: nullableText,
    contactEmail: nullableText.meta({ description: "Kept for the owner; never in a scan response or finder page (finders message the owner through the service)" }),
    contactPhone: nullableText.meta({ description: "Kept for the owner; never in a scan response or finder page (finders message the owner through the service)" }),
    visibility: visibilitySchema,
    emergencyVisible: z.boolean().meta({ description: "Whether this tag's finder page offers your emergency information (the scan's emergencyAvailable when you have some)" }),
    tagType: tagTypeSchema,
    status: z.string().meta({ description: "The tag's status (PENDING_SETUP turns ACTIVE once the profile is complete)" }),
    photos: z.array(photoSchema),
    typedProfile: z.union([petProfileSchema, vehicleProfileSchema, deviceProfileSchema, travelProfileSchema]).nullable().meta({ description: "The saved profile of the tag's type; null for GENERAL or when not saved yet" }),
  })
  .meta({ id: "Profile" });
export type Profile = z.infer<typeof profileSchema>;
