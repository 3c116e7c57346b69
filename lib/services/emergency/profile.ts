import { schema } from "@/db/client";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { contactRows, profileRow } from "./queries";
import { hasContent, toContact, toProfileFields } from "./records";
import type { EmergencyProfile, EmergencyProfileFields, EmergencyProfileInput } from "./schemas";


/** Whether first responders are shown this profile (the owner's dashboard says so). */
export function isShownToResponders(profile: EmergencyProfile): boolean {
  const { emergencyContacts, ...fields } = profile;
  return hasContent(fields, emergencyContacts.length);
}

/**
 * GET /emergency: the caller's profile with its contacts (id and e-mail included). Before anything was
 * saved it is the empty profile (nulls, empty lists, no contacts, updatedAt null) rather than a 404.
 */
export async function getEmergencyProfile(ctx: ServiceContext): Promise<EmergencyProfile> {
  const { userId } = requireUser(ctx);
  const [row, contacts] = await Promise.all([profileRow(ctx.db, userId), contactRows(ctx.db, userId)]);
  const { updatedAt, ...fields } = toProfileFields(row);
  return { ...fields, emergencyContacts: contacts.map(toContact), updatedAt };
}

/**
 * PUT /emergency: replaces the profile's fields (a field left out or null is cleared; lists become
 * empty) and answers them without the contacts, which have their own endpoints and are kept.
 */
export async function putEmergencyProfile(ctx: ServiceContext, input: EmergencyProfileInput): Promise<EmergencyProfileFields> {
  const { userId } = requireUser(ctx);
  const values = {
    bloodType: input.bloodType ?? null,
    conditions: input.conditions ?? [],
    allergies: input.allergies ?? [],
    medications: input.medications ?? [],
    physician: input.physician ?? null,
    physicianPhone: input.physicianPhone ?? null,
    specialInstructions: input.specialInstructions ?? null,
    organDonor: input.organDonor ?? null,
  };
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(schema.emergencyProfiles)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: schema.emergencyProfiles.userId, set: { ...values, updatedAt: new Date() } })
      .returning();
    return toProfileFields(row);
  });
}
