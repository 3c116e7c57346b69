import { eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { User } from "@/db/schema";
import type { UserActor } from "@/lib/services/context";
import { ForbiddenError } from "@/lib/services/errors";
import { revokeUserApiKeys, revokeUserSessions } from "@/lib/services/auth/queries";

/**
 * Who may suspend (or lift the suspension of) whom: an ADMIN suspends USERs only, a SUPER_ADMIN admins
 * too, nobody a SUPER_ADMIN, and nobody themselves. 403 otherwise.
 */
export function assertMaySuspend(admin: Pick<UserActor, "userId" | "role">, user: Pick<User, "id" | "role">): void {
  if (user.id === admin.userId) throw new ForbiddenError("You cannot suspend your own account.");
  if (user.role === "SUPER_ADMIN") throw new ForbiddenError("A super admin cannot be suspended.");
  if (user.role === "ADMIN" && admin.role !== "SUPER_ADMIN") throw new ForbiddenError("Only a super admin can suspend an admin.");
}

/**
 * Suspends the user (a row the caller has locked, inside its transaction): the role rules above, then
 * suspendedAt (kept when already suspended) and every session and API key revoked at once, so each of
 * the user's credentials answers 403 from the next request on. The caller notifies and audits.
 */
export async function suspendAccount(db: Executor, admin: Pick<UserActor, "userId" | "role">, user: User, now = new Date()): Promise<User> {
  assertMaySuspend(admin, user);
  const [updated] = await db
    .update(schema.users)
    .set({ suspendedAt: user.suspendedAt ?? now })
    .where(eq(schema.users.id, user.id))
    .returning();
  await revokeUserSessions(db, user.id, undefined, now);
  await revokeUserApiKeys(db, user.id, now);
  return updated!;
}

/**
 * Lifts a suspension: the user may sign in again; the revoked sessions and keys stay revoked. An ADMIN
 * lifts a USER's only; a SUPER_ADMIN anyone's (also of an account promoted while suspended); no one their own.
 */
export async function unsuspendAccount(db: Executor, admin: Pick<UserActor, "userId" | "role">, user: User): Promise<User> {
  if (user.id === admin.userId) throw new ForbiddenError("You cannot lift your own suspension.");
  if (user.role !== "USER" && admin.role !== "SUPER_ADMIN") throw new ForbiddenError("Only a super admin can lift an admin's suspension.");
  if (!user.suspendedAt) return user;
  const [updated] = await db.update(schema.users).set({ suspendedAt: null }).where(eq(schema.users.id, user.id)).returning();
  return updated!;
}
