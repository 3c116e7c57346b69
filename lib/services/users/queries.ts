import { eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { User } from "@/db/schema";
import { revokeUserApiKeys, revokeUserSessions } from "@/lib/services/auth";

/**
 * The suspension's writes on a bare database handle (the caller holds the user's row locked in its
 * transaction). suspendUser() and unsuspendUser() in suspension.ts are the verbs; these only write.
 */

/** suspendedAt (kept when already suspended) and every session and API key revoked at once. */
export async function suspendAccount(db: Executor, user: User, now = new Date()): Promise<User> {
  const [updated] = await db
    .update(schema.users)
    .set({ suspendedAt: user.suspendedAt ?? now })
    .where(eq(schema.users.id, user.id))
    .returning();
  await revokeUserSessions(db, user.id, undefined, now);
  await revokeUserApiKeys(db, user.id, now);
  return updated!;
}

/** Clears suspendedAt; the revoked sessions and keys stay revoked. */
export async function unsuspendAccount(db: Executor, user: User): Promise<User> {
  if (!user.suspendedAt) return user;
  const [updated] = await db.update(schema.users).set({ suspendedAt: null }).where(eq(schema.users.id, user.id)).returning();
  return updated!;
}
