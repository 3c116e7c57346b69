import { z } from "zod";
import { petSpeciesSchema } from "@/lib/services/alerts";
import { normalizePhoneNumber } from "@/lib/services/relay";
import { NAME_MAX, SHORT_TEXT_MAX, requiredText } from "@/lib/validation/text-fields";

/**
 * Request and response schemas of organisations (shelters, vets, police), their view of open lost-pet
 * alerts and their found-animal reports, written once for the API's contracts and the pages' forms.
 */

export const organisationKindSchema = z.enum(["SHELTER", "VET", "POLICE"], "One of SHELTER, VET, POLICE.");
export type OrganisationKind = z.infer<typeof organisationKindSchema>;

/** How far around it an organisation sees open alerts. */
export const WATCH_RADIUS_MIN_KM = 1;
export const WATCH_RADIUS_MAX_KM = 100;
/** Open alerts within this distance of a found animal are its possible owners. */
export const MATCH_RADIUS_KM = 20;
/** A found report's photo as a data: URL: 5 MB of image is about 6.7 MB of base64. */
const PHOTO_DATA_URL_MAX = 7_000_000;
export const FOUND_REPORT_BODY_LIMIT_BYTES = 7_500_000;
export const FOUND_NOTE_MAX = 1000;

const latitude = z.number({ error: "Must be a number." }).min(-90, "Between -90 and 90.").max(90, "Between -90 and 90.").meta({ example: 51.5072 });
const longitude = z.number({ error: "Must be a number." }).min(-180, "Between -180 and 180.").max(180, "Between -180 and 180.").meta({ example: -0.1276 });

/** A number in international form, stored as E.164 (the relay's reading of numbers: real ranges, not only length). */
const phoneInput = requiredText(40)
  .transform((value, context) => {
    const e164 = normalizePhoneNumber(value);
    if (!e164) {
      context.addIssue({ code: "custom", message: "Must be a phone number in international form, e.g. +44 20 7946 0958." });
      return z.NEVER;
    }
    return e164;
  })
  .meta({ example: "+442079460958" });

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && Boolean(url.hostname) && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** An http(s) address only: the page links to it, so javascript:, data: and the like are refused. */
const websiteInput = z
  .string({ error: "Must be a string." })
  .trim()
  .max(300, "At most 300 characters.")
  .nullable()
  .optional()
  .transform((value) => (value === "" ? null : value))
  .refine((value) => value == null || isWebUrl(value), "Must be a web address starting with http:// or https://.")
  .meta({ example: "https://www.example-shelter.org" });

/** POST /organisations. */
export const applyOrganisationInput = z.object({
  name: requiredText(NAME_MAX).meta({ example: "Riverside Animal Shelter" }),
  kind: organisationKindSchema.meta({ example: "SHELTER" }),
  address: requiredText(SHORT_TEXT_MAX).meta({ example: "12 Mill Lane, London SE1 7PB" }),
  latitude,
  longitude,
  phone: phoneInput,
  website: websiteInput,
});
export type ApplyOrganisationInput = z.output<typeof applyOrganisationInput>;

/** PATCH /organisations/me. Name, kind, address and place are what an admin verified, so they are not changed here. */
export const updateOrganisationInput = z
  .object({
    watchRadiusKm: z
      .number({ error: "Must be a number." })
      .min(WATCH_RADIUS_MIN_KM, `Between ${WATCH_RADIUS_MIN_KM} and ${WATCH_RADIUS_MAX_KM} km.`)
      .max(WATCH_RADIUS_MAX_KM, `Between ${WATCH_RADIUS_MIN_KM} and ${WATCH_RADIUS_MAX_KM} km.`)
      .optional()
      .meta({ example: 30 }),
    phone: phoneInput.optional(),
    website: websiteInput,
  })
  .refine((input) => input.watchRadiusKm !== undefined || input.phone !== undefined || input.website !== undefined, { message: "Send watchRadiusKm, phone or website.", path: ["watchRadiusKm"] });
export type UpdateOrganisationInput = z.output<typeof updateOrganisationInput>;

const DATA_URL = /^data:image\/(jpeg|png|webp);base64,([A-Za-z0-9+/]+={0,2})$/;

/** The photo as a data: URL; the bytes are checked by content and re-encoded, whatever the URL claims. */
const photoDataUrl = z
  .string({ error: "Must be a string." })
  .max(PHOTO_DATA_URL_MAX, "The photo must be 5 MB or smaller.")
  .regex(DATA_URL, "Must be a data: URL of a JPEG, PNG or WebP image (data:image/jpeg;base64,…).")
  .transform((value): Buffer => Buffer.from(value.slice(value.indexOf(",") + 1), "base64"))
  .nullable()
  .optional()
  .meta({ description: "data:image/jpeg|png|webp;base64,… of at most 5 MB; re-encoded without metadata", example: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==" });

const foundAtInput = z.iso
  .datetime({ offset: true, error: "Must be a date and time (ISO 8601)." })
  .transform((value) => new Date(value))
  .refine((value) => value.getTime() <= Date.now() + 5 * 60_000, "Cannot be in the future.")
  .refine((value) => value.getTime() >= Date.now() - 365 * 24 * 3_600_000, "At most a year ago.")
  .meta({ example: "2026-11-26T18:30:00Z" });

const optionalShortText = (max: number, example: string) =>
  z
    .string({ error: "Must be a string." })
    .trim()
    .max(max, `At most ${max} characters.`)
    .nullable()
    .optional()
    .transform((value) => (value ? value : null))
    .meta({ example });

/** POST /organisations/found. */
export const fileFoundReportInput = z.object({
  species: petSpeciesSchema.meta({ example: "DOG" }),
  breed: optionalShortText(NAME_MAX, "Labrador"),
  colour: optionalShortText(NAME_MAX, "Brown and white"),
  photo: photoDataUrl,
  latitude,
  longitude,
  foundAt: foundAtInput,
  note: requiredText(FOUND_NOTE_MAX).meta({ example: "Found near the park gates, friendly, no collar. With us at the shelter." }),
});
export type FileFoundReportInput = z.output<typeof fileFoundReportInput>;

/** The filters of GET /admin/organisations (with page and limit). */
export const adminOrganisationFilters = z.object({
  verified: z
    .enum(["true", "false"], "Either true or false.")
    .transform((value) => value === "true")
    .optional()
    .meta({ description: "`true`: verified organisations only; `false`: those waiting for verification (oldest first)" }),
});

/** PATCH /admin/organisations/:id. */
export const setOrganisationVerifiedInput = z.object({
  verified: z.boolean("Must be true or false.").meta({ example: true }),
});

// ---- responses ----

export const organisationSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: organisationKindSchema,
    address: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    phone: z.string().meta({ example: "+442079460958" }),
    website: z.string().nullable(),
    watchRadiusKm: z.number().meta({ example: 25 }),
    verified: z.boolean(),
    verifiedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Organisation" });
export type Organisation = z.infer<typeof organisationSchema>;

export const adminOrganisationSchema = organisationSchema
  .extend({
    userId: z.uuid(),
    userEmail: z.string().nullable().meta({ example: "shelter@example.com" }),
    verifiedById: z.uuid().nullable(),
  })
  .meta({ id: "AdminOrganisation" });
export type AdminOrganisation = z.infer<typeof adminOrganisationSchema>;

const roundedPoint = z.object({ latitude: z.number(), longitude: z.number() }).meta({ description: "Rounded to a grid of about 500 m" });

/** An open alert as an organisation sees it (GET /organisations/alerts) and as a found report's match. */
export const organisationAlertSchema = z
  .object({
    alertId: z.uuid(),
    petName: z.string().meta({ example: "Bella" }),
    species: petSpeciesSchema,
    breed: z.string().nullable(),
    color: z.string().nullable(),
    photoUrl: z.string().nullable().meta({ description: "The pet's primary photo", example: "/api/photos/3f0c…" }),
    lastSeen: roundedPoint,
    lastSeenAt: z.iso.datetime(),
    createdAt: z.iso.datetime(),
    distanceText: z.string().meta({ example: "about 2.4 km" }),
    url: z.string().meta({ example: "/lost/0b1c…" }),
  })
  .meta({ id: "OrganisationAlert" });
export type OrganisationAlert = z.infer<typeof organisationAlertSchema>;

/** A found report's match is an alert's card; its distanceText is from the found place to where the pet was last seen. */
export const foundReportMatchSchema = organisationAlertSchema;

export const foundReportSchema = z
  .object({
    id: z.uuid(),
    species: petSpeciesSchema,
    breed: z.string().nullable(),
    colour: z.string().nullable(),
    photoUrl: z.string().nullable().meta({ example: "/api/v1/found-reports/5d2e…/photo" }),
    latitude: z.number().meta({ description: "Precise for the filing organisation and admins; rounded to about 500 m for an owner" }),
    longitude: z.number(),
    foundAt: z.iso.datetime(),
    note: z.string(),
    createdAt: z.iso.datetime(),
    removed: z.boolean().meta({ description: "Removed by a moderator (only admins and the filing organisation still see it)" }),
    organisation: z.object({ id: z.uuid(), name: z.string(), kind: organisationKindSchema, phone: z.string(), address: z.string(), website: z.string().nullable() }),
    matches: z.array(foundReportMatchSchema).meta({ description: "The open alerts it matched when filed: all of them for the organisation and admins, an owner's own for an owner" }),
  })
  .meta({ id: "FoundReport" });
export type FoundReport = z.infer<typeof foundReportSchema>;

export const foundReportFiledSchema = z
  .object({
    report: foundReportSchema,
    matches: z.array(foundReportMatchSchema),
  })
  .meta({ id: "FoundReportFiled" });
export type FoundReportFiled = z.infer<typeof foundReportFiledSchema>;
