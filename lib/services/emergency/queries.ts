import { asc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";

/**
 * The emergency domain's reads on a bare database handle (or an open transaction): a user's profile row
 * and contacts. Routes, actions and pages use the verbs in index.ts instead.
 */

export type ProfileRow = typeof schema.emergencyProfiles.$inferSelect;
export type ContactRow = typeof schema.emergencyContacts.$inferSelect;

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
