import { z } from "zod";
import { contactEmailInput, contactPhoneInput, NAME_MAX, optionalText, requiredPhoneInput, requiredText, SHORT_TEXT_MAX } from "@/lib/validation/text-fields";

/**
 * Request and response schemas of the emergency profile, written once: the API's contracts
 * (lib/http/endpoints/emergency.ts) and the dashboard's forms both parse with them.
 */

/** ABO and Rh. Unknown is `null`: a first responder must never read a guess as a fact. */
export const BLOOD_TYPES = ["A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-"] as const;
export const bloodTypeSchema = z.enum(BLOOD_TYPES, "One of A+, A-, B+, B-, AB+, AB-, O+, O-.");
export type BloodType = z.infer<typeof bloodTypeSchema>;

export const MEDICAL_ITEM_MAX = NAME_MAX;
export const MEDICAL_LIST_MAX = 20;
export const MAX_EMERGENCY_CONTACTS = 5;

/** A list of short facts (conditions, allergies, medications): at most 20, each 1–100 characters. */
const medicalList = (example: string[]) =>
  z
    .array(
      z
        .string({ error: "Must be a string." })
        .trim()
        .min(1, "Items must not be empty.")
        .max(MEDICAL_ITEM_MAX, `Each item at most ${MEDICAL_ITEM_MAX} characters.`),
      "A list of text items.",
    )
    .max(MEDICAL_LIST_MAX, `At most ${MEDICAL_LIST_MAX} items.`)
    .nullable()
    .optional()
    .meta({ description: `Up to ${MEDICAL_LIST_MAX} items of 1–${MEDICAL_ITEM_MAX} characters; null or absent is an empty list`, example });

/**
 * PUT /emergency. PUT replaces the profile: every field is optional, and a field left out (or null)
 * is cleared, so the body is the whole profile as it should read afterwards. Contacts are separate.
 */
export const emergencyProfileInput = z.object({
  bloodType: bloodTypeSchema.nullable().optional().meta({ description: "null or absent: not stated", example: "O+" }),
  conditions: medicalList(["Type 1 diabetes"]),
  allergies: medicalList(["Penicillin", "Peanuts"]),
  medications: medicalList(["Insulin glargine 20 units nightly"]),
  physician: optionalText(NAME_MAX).meta({ example: "Dr. Grace Hopper" }),
  physicianPhone: contactPhoneInput.meta({ example: "+1 555 0100" }),
  specialInstructions: optionalText(SHORT_TEXT_MAX).meta({ example: "Glucose tablets in the left jacket pocket." }),
  organDonor: z.boolean("Must be true or false.").nullable().optional().meta({ description: "null or absent: not stated", example: true }),
});
export type EmergencyProfileInput = z.output<typeof emergencyProfileInput>;

/** POST /emergency/contacts. */
export const emergencyContactInput = z.object({
  name: requiredText(NAME_MAX).meta({ example: "Alan Turing" }),
  relationship: requiredText(NAME_MAX).meta({ example: "Brother" }),
  phone: requiredPhoneInput.meta({ example: "+44 20 7946 0000" }),
  email: contactEmailInput.meta({ description: "Shown to you only, never to first responders", example: "alan@example.com" }),
});
export type EmergencyContactInput = z.output<typeof emergencyContactInput>;

/** PATCH /emergency/contacts/:id: any subset; name, relationship and phone cannot be cleared, e-mail can (null). */
export const emergencyContactPatch = z.object({
  name: requiredText(NAME_MAX).optional().meta({ example: "Alan Turing" }),
  relationship: requiredText(NAME_MAX).optional().meta({ example: "Brother" }),
  phone: requiredPhoneInput.optional().meta({ example: "+44 20 7946 0000" }),
  email: contactEmailInput.meta({ description: "null or \"\" removes it", example: "alan@example.com" }),
});
export type EmergencyContactPatch = z.output<typeof emergencyContactPatch>;

// ---- responses ----

const medicalFacts = {
  bloodType: bloodTypeSchema.nullable().meta({ example: "O+" }),
  conditions: z.array(z.string()).meta({ example: ["Type 1 diabetes"] }),
  allergies: z.array(z.string()).meta({ example: ["Penicillin"] }),
  medications: z.array(z.string()).meta({ example: ["Insulin glargine 20 units nightly"] }),
  physician: z.string().nullable().meta({ example: "Dr. Grace Hopper" }),
  physicianPhone: z.string().nullable().meta({ example: "+1 555 0100" }),
  specialInstructions: z.string().nullable().meta({ example: "Glucose tablets in the left jacket pocket." }),
  organDonor: z.boolean().nullable().meta({ description: "null: not stated", example: true }),
};

const updatedAt = z.iso.datetime().nullable().meta({ description: "When the profile was last saved; null before it ever was", example: "2026-03-12T14:05:00.000Z" });

export const emergencyContactSchema = z
  .object({
    id: z.uuid(),
    name: z.string().meta({ example: "Alan Turing" }),
    relationship: z.string().meta({ example: "Brother" }),
    phone: z.string().meta({ example: "+44 20 7946 0000" }),
    email: z.string().nullable().meta({ example: "alan@example.com" }),
  })
  .meta({ id: "EmergencyContact" });
export type EmergencyContact = z.infer<typeof emergencyContactSchema>;

/** What a first responder sees of a contact: no id, no e-mail. */
export const publicEmergencyContactSchema = z
  .object({ name: z.string().meta({ example: "Alan Turing" }), relationship: z.string().meta({ example: "Brother" }), phone: z.string().meta({ example: "+44 20 7946 0000" }) })
  .meta({ id: "PublicEmergencyContact" });
export type PublicEmergencyContact = z.infer<typeof publicEmergencyContactSchema>;

/** PUT /emergency's answer: the profile's fields without the contacts. */
export const emergencyProfileFieldsSchema = z.object({ ...medicalFacts, updatedAt }).meta({ id: "EmergencyProfileFields" });
export type EmergencyProfileFields = z.infer<typeof emergencyProfileFieldsSchema>;

/** GET /emergency: the owner's view, contacts with id and e-mail. */
export const emergencyProfileSchema = z.object({ ...medicalFacts, emergencyContacts: z.array(emergencyContactSchema), updatedAt }).meta({ id: "EmergencyProfile" });
export type EmergencyProfile = z.infer<typeof emergencyProfileSchema>;

/** GET /scan/:encryptedId/emergency: what a first responder reads. Nothing of the owner's account. */
export const publicEmergencyProfileSchema = z
  .object({
    ...medicalFacts,
    ownerName: z.string().nullable().meta({ description: "Whose information this is: the name the owner shows finders on this tag, when given", example: "Alex" }),
    emergencyContacts: z.array(publicEmergencyContactSchema),
    updatedAt,
  })
  .meta({ id: "PublicEmergencyProfile" });
export type PublicEmergencyProfile = z.infer<typeof publicEmergencyProfileSchema>;

/** GET /emergency/accesses: one read of the profile through a tag. */
export const emergencyAccessSchema = z
  .object({
    id: z.uuid(),
    accessedAt: z.iso.datetime(),
    tagId: z.uuid().nullable().meta({ description: "null when the tag was since released" }),
    tagName: z.string().nullable().meta({ description: "The tag's item name, while the tag is still yours", example: "House keys" }),
    city: z.string().nullable().meta({ example: "Lyon" }),
    country: z.string().nullable().meta({ example: "FR" }),
    agent: z.string().nullable().meta({ description: "Browser and system of the reader, when known", example: "Safari on iOS" }),
  })
  .meta({ id: "EmergencyAccess" });
export type EmergencyAccess = z.infer<typeof emergencyAccessSchema>;
