import { asc, eq, getTableColumns, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import { type ContactRow, hasContent, type ProfileRow, toProfileFields } from "./records";

/**
 * The emergency domain's reads on a bare database handle (or an open transaction): a user's profile row
 * and contacts, and whether the profile is there for first responders. Routes, actions and pages use the
 * verbs in index.ts instead.
 */

export type { ContactRow, ProfileRow } from "./records";

/** A user's emergency profile row, if they saved one. */
export async function profileRow(db: Executor, userId: string): Promise<ProfileRow | undefined> {
  const [row] = await db.select().from(schema.emergencyProfiles).where(eq(schema.emergencyProfiles.userId, userId));
  return row;
}

/** A user's contacts in the order they were added. */
export function contactRows(db: Executor, userId: string): Promise<ContactRow[]> {
  return db
    .select()
    .from(schema.emergencyContacts)
    .where(eq(schema.emergencyContacts.userId, userId))
    .orderBy(asc(schema.emergencyContacts.createdAt), asc(schema.emergencyContacts.id));
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
