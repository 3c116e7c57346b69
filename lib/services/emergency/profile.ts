import { eq, getTableColumns, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { type ContactRow, contactRows, profileRow, type ProfileRow } from "./queries";
import type { BloodType, EmergencyContact, EmergencyProfile, EmergencyProfileFields, EmergencyProfileInput } from "./schemas";


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

/** Whether first responders are shown this profile (the owner's dashboard says so). */
export function isShownToResponders(profile: EmergencyProfile): boolean {
  const { emergencyContacts, ...fields } = profile;
  return hasContent(fields, emergencyContacts.length);
}

/**
 * Whether first responders can read this user's emergency profile through a tag (the scan's
 * `emergencyAvailable`): it exists and states at least one fact or contact.
 */
export async function hasEmergencyProfile(db: Executor, userId: string): Promise<boolean> {
  // No profile row, nothing to serve (contacts alone included): one prepared statement reads the row and whether a contact exists.
  const [found] = await preparedFor(emergencyPresenceQueries, db, prepareEmergencyPresence).execute({ userId });
  if (!found) return false;
  const { hasContact, ...row } = found;
  return hasContent(toProfileFields(row), hasContact ? 1 : 0);
}

const emergencyPresenceQueries = new WeakMap<Executor, ReturnType<typeof prepareEmergencyPresence>>();

function prepareEmergencyPresence(db: Executor) {
  const contact = db.select({ one: sql`1` }).from(schema.emergencyContacts).where(eq(schema.emergencyContacts.userId, schema.emergencyProfiles.userId));
  return db
    .select({ ...getTableColumns(schema.emergencyProfiles), hasContact: sql<boolean>`exists (${contact})` })
    .from(schema.emergencyProfiles)
    .where(eq(schema.emergencyProfiles.userId, sql.placeholder("userId")))
    .prepare("emergency_presence");
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
