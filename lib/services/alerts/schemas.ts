import { z } from "zod";
import { SHORT_TEXT_MAX } from "@/lib/validation/text-fields";
import { contactOwnerInput } from "@/lib/services/messages";
import { shareLocationInput } from "@/lib/services/scans";
import { petSpeciesSchema } from "./species";

/**
 * Request and record schemas of lost-pet alerts (docs/alerts.md), written once: the API contracts
 * (lib/http/endpoints/alerts.ts), the dashboard's and the lost page's forms and the tests parse with them.
 */

/** At most this many alerts per tag in any 24 hours (the 4th is 429). */
export const ALERTS_PER_TAG_PER_DAY = 3;
/** How far back a last-seen time may be. */
export const LAST_SEEN_MAX_AGE_DAYS = 30;
/** Clocks disagree a little: a last-seen time this far ahead of ours is still "now". */
const CLOCK_SKEW_MS = 5 * 60_000;
export const SIGHTING_DEFAULT_MESSAGE = "I've seen this pet.";

const latitude = z.number({ error: "Must be a number." }).min(-90, "Between -90 and 90.").max(90, "Between -90 and 90.").meta({ example: 52.52 });
const longitude = z.number({ error: "Must be a number." }).min(-180, "Between -180 and 180.").max(180, "Between -180 and 180.").meta({ example: 13.405 });

/** PUT /alerts/area. */
export const alertAreaInput = z.object({
  latitude: latitude.meta({ description: "Your home's latitude; stored rounded to about 100 m", example: 52.52 }),
  longitude: longitude.meta({ description: "Your home's longitude; stored rounded to about 100 m", example: 13.405 }),
  radiusKm: z.number({ error: "Must be a number." }).min(1, "Between 1 and 50 km.").max(50, "Between 1 and 50 km.").meta({ description: "How far around it you want to hear of lost pets (1–50 km)", example: 3 }),
  species: petSpeciesSchema.nullable().optional().meta({ description: "Only alerts for this kind of pet; null or absent for all" }),
});
export type AlertAreaInput = z.output<typeof alertAreaInput>;

export const alertAreaSchema = z
  .object({
    latitude: z.number().meta({ description: "Rounded to about 100 m", example: 52.52 }),
    longitude: z.number().meta({ example: 13.405 }),
    radiusKm: z.number().meta({ example: 3 }),
    species: petSpeciesSchema.nullable(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "AlertArea" });
export type AlertArea = z.infer<typeof alertAreaSchema>;

/** POST /tags/:id/lost-alert. */
export const lostAlertInput = z.object({
  latitude: latitude.meta({ description: "Where the pet was last seen", example: 52.52 }),
  longitude,
  lastSeenAt: z.iso
    .datetime({ offset: true, error: "Must be an ISO 8601 date and time." })
    .optional()
    .refine((value) => value === undefined || Date.parse(value) <= Date.now() + CLOCK_SKEW_MS, "Cannot be in the future.")
    .refine((value) => value === undefined || Date.parse(value) >= Date.now() - LAST_SEEN_MAX_AGE_DAYS * 86_400_000, `At most ${LAST_SEEN_MAX_AGE_DAYS} days ago.`)
    .meta({ description: `When the pet was last seen (not in the future, at most ${LAST_SEEN_MAX_AGE_DAYS} days ago); now when absent`, example: "2026-03-12T14:05:09Z" }),
  radiusKm: z
    .number({ error: "Must be a number." })
    .min(1, "Between 1 and 20 km.")
    .max(20, "Between 1 and 20 km.")
    .default(5)
    .meta({ description: "How far around the place to alert watchers (1–20 km, default 5)", example: 5 }),
  note: z
    .string({ error: "Must be a string." })
    .trim()
    .max(SHORT_TEXT_MAX, `At most ${SHORT_TEXT_MAX} characters.`)
    .nullable()
    .optional()
    .transform((value) => (value ? value : null))
    .meta({ description: `Shown on the public page (at most ${SHORT_TEXT_MAX} characters)`, example: "Ran off towards the park, shy with strangers." }),
});
export type LostAlertInput = z.output<typeof lostAlertInput>;

export const lostAlertCreatedSchema = z
  .object({
    alertId: z.uuid(),
    recipients: z.number().int().meta({ description: "How many watchers nearby will be notified (the notifications go out in the background)", example: 42 }),
    url: z.string().meta({ description: "The public page of the alert", example: "/lost/5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11" }),
  })
  .meta({ id: "LostAlertCreated" });
export type LostAlertCreated = z.infer<typeof lostAlertCreatedSchema>;

export const alertStatusSchema = z.enum(["OPEN", "HOME", "CLOSED"]).meta({
  id: "LostAlertStatus",
  description: "OPEN while the tag is LOST; HOME once the tag was marked FOUND or ACTIVE again; CLOSED when it left LOST otherwise",
});
export type AlertStatus = z.infer<typeof alertStatusSchema>;

/** One of the owner's alerts of a tag, with the precise place (only the owner sees it). */
export const tagLostAlertSchema = z
  .object({
    id: z.uuid(),
    status: alertStatusSchema,
    removed: z.boolean().meta({ description: "A moderator removed it: its page is gone" }),
    latitude: z.number(),
    longitude: z.number(),
    lastSeenAt: z.iso.datetime(),
    radiusKm: z.number(),
    note: z.string().nullable(),
    recipients: z.number().int().meta({ description: "Watchers the alert reached" }),
    notified: z.number().int().meta({ description: "Of those, how many were notified so far" }),
    createdAt: z.iso.datetime(),
    closedAt: z.iso.datetime().nullable(),
    url: z.string(),
  })
  .meta({ id: "TagLostAlert" });
export type TagLostAlert = z.infer<typeof tagLostAlertSchema>;

export const tagLostAlertsSchema = z
  .object({
    alerts: z.array(tagLostAlertSchema).meta({ description: "Newest first (at most the last 100)" }),
    remainingToday: z.number().int().meta({ description: `How many more alerts this tag may raise now (at most ${ALERTS_PER_TAG_PER_DAY} in any 24 hours)` }),
    nextAllowedAt: z.iso.datetime().nullable().meta({ description: "When remainingToday is 0: when the next one is allowed" }),
  })
  .meta({ id: "TagLostAlerts" });
export type TagLostAlerts = z.infer<typeof tagLostAlertsSchema>;

const photoSchema = z.object({ url: z.string(), isPrimary: z.boolean() });

/** GET /lost/:alertId: what anyone may see; never the owner's name, contact details, home or the precise place. */
export const publicLostAlertSchema = z
  .object({
    id: z.uuid(),
    status: alertStatusSchema,
    petName: z.string().nullable(),
    species: petSpeciesSchema,
    breed: z.string().nullable(),
    color: z.string().nullable(),
    size: z.string().nullable(),
    distinctiveMarks: z.string().nullable(),
    photos: z.array(photoSchema).meta({ description: "Primary first" }),
    lastSeen: z
      .object({ latitude: z.number(), longitude: z.number(), at: z.iso.datetime() })
      .meta({ description: "Rounded to a grid of about 500 m: the area, never the exact place" }),
    note: z.string().nullable(),
    reward: z.object({ amount: z.number(), currency: z.string(), note: z.string().nullable() }).nullable().meta({ description: "The tag's ACTIVE reward while the alert is open" }),
    relay: z
      .object({ number: z.string(), pin: z.string() })
      .nullable()
      .meta({ description: "The phone relay, as on the finder's page (the relay's number and the tag's PIN, never the owner's number)" }),
    contactEnabled: z.boolean().meta({ description: "Whether POST /lost/{alertId}/contact and /sightings take a message now" }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "PublicLostAlert" });
export type PublicLostAlert = z.infer<typeof publicLostAlertSchema>;

/** POST /lost/:alertId/contact: the finder page's contact body. */
export const alertContactInput = contactOwnerInput;
export type AlertContactInput = z.output<typeof alertContactInput>;

/** POST /lost/:alertId/sightings. */
export const sightingInput = shareLocationInput.extend({
  message: contactOwnerInput.shape.message.optional().meta({ description: `What you saw; "${SIGHTING_DEFAULT_MESSAGE}" when absent`, example: "Saw her by the bakery on Main Street." }),
  finderName: contactOwnerInput.shape.finderName,
  finderEmail: contactOwnerInput.shape.finderEmail,
});
export type SightingInput = z.output<typeof sightingInput>;

/** One open alert the caller's watch area reached (GET /alerts/nearby). */
export const nearbyAlertSchema = z
  .object({
    alertId: z.uuid(),
    petName: z.string().nullable(),
    species: petSpeciesSchema,
    breed: z.string().nullable(),
    color: z.string().nullable(),
    photoUrl: z.string().nullable(),
    distanceText: z.string().meta({ description: "How far from your home it was last seen, rounded", example: "about 1.2 km" }),
    lastSeenAt: z.iso.datetime(),
    createdAt: z.iso.datetime(),
    url: z.string().meta({ example: "/lost/5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11" }),
  })
  .meta({ id: "NearbyLostAlert" });
export type NearbyAlert = z.infer<typeof nearbyAlertSchema>;

export const alertIdParams = z.object({ alertId: z.uuid().meta({ description: "The alert's id", example: "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11" }) });
