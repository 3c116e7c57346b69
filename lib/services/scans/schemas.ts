import { z } from "zod";
import { tagStatusSchema, tagTypeSchema } from "@/lib/services/tags";
import { ENCRYPTED_ID_PATTERN } from "@/lib/validation/encrypted-id";

/** The opaque id of a scan URL (lib/validation/encrypted-id.ts). */
export const encryptedIdParam = () =>
  z
    .string()
    .regex(ENCRYPTED_ID_PATTERN)
    .meta({ description: "The opaque id in the tag's scan URL (`/t/<encryptedId>`)", example: DEMO_TAG_ENCRYPTED_ID });

/**
 * The scan id of the demo "House keys" tag the seed gives the demo account (outside production). The API
 * documentation uses it as every example, so "Try it out" on a public tag operation reaches the demo
 * owner, never a real one (in production it names no tag: 404).
 */
export const DEMO_TAG_ENCRYPTED_ID = "demo-tag-house-keys-2026";

/** The warning opening the description of a public tag operation whose call reaches the tag's owner. */
export function ownerSideEffectNote(effect: string): string {
  return `**Side effect on a real owner:** ${effect}. "Try it out" sends a real request: use the example encryptedId \`${DEMO_TAG_ENCRYPTED_ID}\`, the demo tag of a seeded development database, not a tag of someone else.`;
}

export const encryptedIdParams = z.object({ encryptedId: encryptedIdParam() });

const text = z.string().nullable();

/**
 * The part of a typed profile a finder sees: what identifies the item (a pet's species, breed, colour,
 * size and distinctive marks; a vehicle's make, model and colour; a device's or bag's kind, brand and
 * colour). Never the microchip number, VIN or serial number (proofs of ownership that a thief or a
 * fraudulent claimant could use, and registry keys that lead to the owner), the vet's details, or the
 * flight and destination (where the owner is, and is not). The licence plate and a pet's need of
 * medication only when the owner chose to show them.
 */
export const publicDetailsSchema = z
  .discriminatedUnion("tagType", [
    z.object({
      tagType: z.literal("PET"),
      petName: z.string(),
      species: z.string(),
      breed: text,
      color: text,
      size: text,
      distinctiveMarks: text,
      needsMedication: z.literal(true).nullable().meta({ description: "true when the pet needs medication and the owner chose to say so; null otherwise (not stated)" }),
    }),
    z.object({
      tagType: z.literal("VEHICLE"),
      make: z.string(),
      model: z.string(),
      year: z.int().nullable(),
      color: text,
      licensePlate: text.meta({ description: "Only when the owner chose to show it; null otherwise" }),
    }),
    z.object({ tagType: z.literal("DEVICE"), deviceType: z.string(), brand: text, model: text, color: text }),
    z.object({ tagType: z.literal("TRAVEL"), luggageType: z.string(), brand: text, color: text }),
  ])
  .nullable()
  .meta({ id: "PublicItemDetails", description: "The typed profile's public part; null for GENERAL tags, PRIVATE profiles, DEACTIVATED tags and tags without one." });

export type PublicDetails = z.infer<typeof publicDetailsSchema>;

export const publicPhotoSchema = z.object({
  url: z.string().meta({ description: "Served by the app (relative to the API's origin)", example: "/api/photos/5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11" }),
  isPrimary: z.boolean(),
});

/** GET /scan/:encryptedId: what anyone who scans the tag sees. Never the owner's e-mail, phone or account. */
export const publicScanViewSchema = z
  .object({
    tagId: z.uuid(),
    encryptedId: z.string().meta({ description: "The scan URL's id, for the finder's follow-up calls (contact, location, emergency)" }),
    itemName: text.meta({ description: "null when the profile is PRIVATE, the tag DEACTIVATED or unowned" }),
    description: text.meta({ description: "null when the profile is PRIVATE, the tag DEACTIVATED or unowned" }),
    ownerName: text.meta({ description: "The name the owner chose to show; null when PRIVATE, DEACTIVATED or unowned" }),
    status: tagStatusSchema.meta({ description: "PENDING_SETUP for an unowned tag" }),
    lostMessage: text.meta({ description: "The owner's message for finders while LOST; for a STOLEN tag, a stolen alert (with the owner's message, if any)" }),
    reward: z.number().nullable().meta({ description: "The amount of the tag's ACTIVE reward in major units, else null" }),
    rewardCurrency: z.string().nullable().meta({ description: "The ACTIVE reward's ISO 4217 currency, else null" }),
    tagType: tagTypeSchema,
    photos: z.array(publicPhotoSchema).meta({ description: "Primary photo first; [] when PRIVATE, DEACTIVATED or unowned" }),
    contactEnabled: z.boolean().meta({ description: "Whether the finder can message the owner (false for unowned and DEACTIVATED tags)" }),
    emergencyAvailable: z.boolean().meta({ description: "Whether GET /scan/{encryptedId}/emergency has the owner's emergency profile: the owner has one and shows it on this tag (emergencyVisible; off by default for PET tags)" }),
    details: publicDetailsSchema,
    relay: z
      .object({
        number: z.string().meta({ description: "The relay's number (E.164), never the owner's", example: "+15005550006" }),
        pin: z.string().meta({ description: "The tag's 6-digit relay PIN: dial it after the number, or start a text with it", example: "482913" }),
      })
      .nullable()
      .meta({
        id: "PublicRelay",
        description:
          "Call or text the owner through the anonymous phone relay (docs/relay.md): present only while the owner has it on for this tag, has a verified phone, and the tag is not DEACTIVATED or EXPIRED; else null. Call the number and type the PIN, or text \"<PIN> <message>\" to it.",
      }),
  })
  .meta({
    id: "PublicScan",
    example: {
      tagId: "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11",
      encryptedId: "q3Xv0b9L2mJc8r1TzN4eWk7u",
      itemName: "Rex",
      description: "Friendly brown beagle with a red collar.",
      ownerName: "Ada",
      status: "LOST",
      lostMessage: "Please message me, he is shy but friendly.",
      reward: null,
      rewardCurrency: null,
      tagType: "PET",
      photos: [{ url: "/api/photos/0c6a3bd4-58f5-4f7e-9a55-7d1b1d0f0e21", isPrimary: true }],
      contactEnabled: true,
      emergencyAvailable: false,
      details: { tagType: "PET", petName: "Rex", species: "Dog", breed: "Beagle", color: "Brown", size: "Medium", distinctiveMarks: "White patch over the left eye", needsMedication: true },
      relay: { number: "+15005550006", pin: "482913" },
    },
  });

export type PublicScanView = z.infer<typeof publicScanViewSchema>;

/** POST /scan/:encryptedId/location: a finder's position, shared with their consent. */
export const shareLocationInput = z.object({
  latitude: z.number({ error: "Must be a number." }).min(-90, "Between -90 and 90.").max(90, "Between -90 and 90.").meta({ example: 51.5072 }),
  longitude: z.number({ error: "Must be a number." }).min(-180, "Between -180 and 180.").max(180, "Between -180 and 180.").meta({ example: -0.1276 }),
  accuracy: z
    .number({ error: "Must be a number." })
    .min(0, "At least 0.")
    .max(100_000, "At most 100000 (metres).")
    .nullable()
    .optional()
    .meta({ description: "Radius of the position's uncertainty in metres, as the browser reports it", example: 25 }),
});

export type ShareLocationInput = z.output<typeof shareLocationInput>;

export const sharedLocationSchema = z
  .object({
    message: z.string(),
    sharedAt: z.iso.datetime(),
  })
  .meta({ id: "SharedLocation", example: { message: "Thank you. The owner can now see where you are.", sharedAt: "2026-03-12T14:05:09.120Z" } });

export type SharedLocation = z.infer<typeof sharedLocationSchema>;
