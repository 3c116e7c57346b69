import { asc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";

/**
 * The user's emergency data for the data export: the profile (if saved), every contact and the whole
 * access log (when, where roughly, through which tag; the readers' IP hashes stay behind).
 */
export async function exportEmergency(db: Executor, userId: string): Promise<unknown[]> {
  const [[profile], contacts, accesses] = await Promise.all([
    db.select().from(schema.emergencyProfiles).where(eq(schema.emergencyProfiles.userId, userId)),
    db.select().from(schema.emergencyContacts).where(eq(schema.emergencyContacts.userId, userId)).orderBy(asc(schema.emergencyContacts.createdAt)),
    db
      .select({ id: schema.emergencyAccesses.id, tagId: schema.emergencyAccesses.tagId, city: schema.emergencyAccesses.city, country: schema.emergencyAccesses.country, agent: schema.emergencyAccesses.agent, accessedAt: schema.emergencyAccesses.accessedAt })
      .from(schema.emergencyAccesses)
      .where(eq(schema.emergencyAccesses.userId, userId))
      .orderBy(asc(schema.emergencyAccesses.accessedAt)),
  ]);
  if (!profile && contacts.length === 0 && accesses.length === 0) return [];
  const { userId: _owner, ...fields } = profile ?? { userId };
  void _owner;
  return [
    {
      profile: profile ? fields : null,
      contacts: contacts.map((contact) => ({ id: contact.id, name: contact.name, relationship: contact.relationship, phone: contact.phone, email: contact.email, createdAt: contact.createdAt, updatedAt: contact.updatedAt })),
      accessLog: accesses.map((access) => ({ ...access, accessedAt: access.accessedAt.toISOString() })),
    },
  ];
}
