import type { schema } from "@/db/client";
import type { BloodType, EmergencyContact, EmergencyProfileFields } from "./schemas";

/** The emergency domain's rows as its answers show them (pure: no database access). */

export type ProfileRow = typeof schema.emergencyProfiles.$inferSelect;
export type ContactRow = typeof schema.emergencyContacts.$inferSelect;

/** The fields of a profile row as the API shows them; no row yet reads as the empty profile. */
export function toProfileFields(row: ProfileRow | undefined): EmergencyProfileFields {
  return {
    bloodType: (row?.bloodType as BloodType | null | undefined) ?? null,
    conditions: row?.conditions ?? [],
    allergies: row?.allergies ?? [],
    medications: row?.medications ?? [],
    physician: row?.physician ?? null,
    physicianPhone: row?.physicianPhone ?? null,
    specialInstructions: row?.specialInstructions ?? null,
    organDonor: row?.organDonor ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

export function toContact(row: ContactRow): EmergencyContact {
  return { id: row.id, name: row.name, relationship: row.relationship, phone: row.phone, email: row.email };
}

/** Whether a profile says anything: a stated fact or a contact. An empty one is not served to first responders. */
export function hasContent(fields: EmergencyProfileFields, contactCount: number): boolean {
  return (
    contactCount > 0 ||
    fields.bloodType !== null ||
    fields.conditions.length > 0 ||
    fields.allergies.length > 0 ||
    fields.medications.length > 0 ||
    fields.physician !== null ||
    fields.physicianPhone !== null ||
    fields.specialInstructions !== null ||
    fields.organDonor !== null
  );
}
