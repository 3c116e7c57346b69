import { and, count, eq } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { NotFoundError, UnprocessableError } from "@/lib/services/errors";
import { toContact } from "./records";
import { MAX_EMERGENCY_CONTACTS, type EmergencyContact, type EmergencyContactInput, type EmergencyContactPatch } from "./schemas";

const CONTACT_NOT_FOUND = "Emergency contact not found.";

/**
 * POST /emergency/contacts. At most five per user (422 beyond), counted while the user's profile row
 * is locked: the row is created when missing and locked FOR UPDATE, so concurrent additions take turns
 * and ten at once still leave five.
 */
export async function addEmergencyContact(ctx: ServiceContext, input: EmergencyContactInput): Promise<EmergencyContact> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    await tx.db.insert(schema.emergencyProfiles).values({ userId }).onConflictDoNothing();
    await tx.db.select({ userId: schema.emergencyProfiles.userId }).from(schema.emergencyProfiles).where(eq(schema.emergencyProfiles.userId, userId)).for("update");
    const [existing] = await tx.db.select({ n: count() }).from(schema.emergencyContacts).where(eq(schema.emergencyContacts.userId, userId));
    if ((existing?.n ?? 0) >= MAX_EMERGENCY_CONTACTS) {
      throw new UnprocessableError(`You can keep at most ${MAX_EMERGENCY_CONTACTS} emergency contacts. Remove one to add another.`, { limit: MAX_EMERGENCY_CONTACTS });
    }
    const [row] = await tx.db
      .insert(schema.emergencyContacts)
      .values({ userId, name: input.name, relationship: input.relationship, phone: input.phone, email: input.email ?? null })
      .returning();
    return toContact(row!);
  });
}

/** PATCH /emergency/contacts/:id: the given fields only. Someone else's contact is 404. */
export async function updateEmergencyContact(ctx: ServiceContext, contactId: string, patch: EmergencyContactPatch): Promise<EmergencyContact> {
  const { userId } = requireUser(ctx);
  const updates: Partial<typeof schema.emergencyContacts.$inferInsert> = {};
  if (patch.name !== undefined) updates.name = patch.name;
  if (patch.relationship !== undefined) updates.relationship = patch.relationship;
  if (patch.phone !== undefined) updates.phone = patch.phone;
  if (patch.email !== undefined) updates.email = patch.email;
  const mine = and(eq(schema.emergencyContacts.id, contactId), eq(schema.emergencyContacts.userId, userId));
  return withTransaction(ctx, async (tx) => {
    const [row] = Object.keys(updates).length
      ? await tx.db.update(schema.emergencyContacts).set(updates).where(mine).returning()
      : await tx.db.select().from(schema.emergencyContacts).where(mine);
    if (!row) throw new NotFoundError(CONTACT_NOT_FOUND);
    return toContact(row);
  });
}

/** DELETE /emergency/contacts/:id. Someone else's contact, or one already removed, is 404. */
export async function deleteEmergencyContact(ctx: ServiceContext, contactId: string): Promise<{ message: string }> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const removed = await tx.db
      .delete(schema.emergencyContacts)
      .where(and(eq(schema.emergencyContacts.id, contactId), eq(schema.emergencyContacts.userId, userId)))
      .returning({ id: schema.emergencyContacts.id });
    if (removed.length === 0) throw new NotFoundError(CONTACT_NOT_FOUND);
    return { message: "The emergency contact was removed." };
  });
}
