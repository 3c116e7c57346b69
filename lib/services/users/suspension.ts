import type { User } from "@/db/schema";
import { recordAudit } from "@/lib/services/audit";
import type { ServiceContext, UserActor } from "@/lib/services/context";
import { ForbiddenError } from "@/lib/services/errors";
import { notify } from "@/lib/services/notifications";
import { suspendAccount, unsuspendAccount } from "./queries";

type Admin = Pick<UserActor, "userId" | "role">;

/**
 * Who may suspend whom: an ADMIN suspends USERs only, a SUPER_ADMIN admins too, nobody a SUPER_ADMIN,
 * and nobody themselves. 403 otherwise.
 */
export function assertMaySuspend(admin: Admin, user: Pick<User, "id" | "role">): void {
  if (user.id === admin.userId) throw new ForbiddenError("You cannot suspend your own account.");
  if (user.role === "SUPER_ADMIN") throw new ForbiddenError("A super admin cannot be suspended.");
  if (user.role === "ADMIN" && admin.role !== "SUPER_ADMIN") throw new ForbiddenError("Only a super admin can suspend an admin.");
}

/**
 * Who may lift a suspension: an ADMIN a USER's only; a SUPER_ADMIN anyone's (also of an account promoted
 * while suspended); no one their own. 403 otherwise.
 */
function assertMayUnsuspend(admin: Admin, user: Pick<User, "id" | "role">): void {
  if (user.id === admin.userId) throw new ForbiddenError("You cannot lift your own suspension.");
  if (user.role !== "USER" && admin.role !== "SUPER_ADMIN") throw new ForbiddenError("Only a super admin can lift an admin's suspension.");
}

export interface SuspensionOptions {
  now?: Date;
  /**
   * The row as the caller found it, when the caller changed it too in this transaction (an admin's PATCH
   * that changes the role as well): the one audit entry then records both changes. Defaults to `user`.
   */
  before?: User;
  /** The report the suspension resolves: named in the text (its kind in words) and in the notification's data. */
  report?: { id: string; words: string };
  /** The moderator's note to the user, appended to the text. */
  note?: string | null;
}

function auditUserChange(tx: ServiceContext, before: User, after: User) {
  return recordAudit(tx, {
    action: "user.update",
    entityType: "user",
    entityId: before.id,
    before: { role: before.role, suspendedAt: before.suspendedAt },
    after: { role: after.role, suspendedAt: after.suspendedAt },
  });
}

/**
 * Suspends the user, whose row the caller holds locked in its transaction: the role rules of
 * assertMaySuspend, then suspendedAt (kept when already suspended) and every session and API key revoked
 * at once, so each credential answers 403 from the next request on (their live streams close); the
 * change audited (`user.update`) and the user told (SECURITY notification, by e-mail too). The admin's
 * PATCH and a report's SUSPEND_USER action both suspend through here.
 */
export async function suspendUser(tx: ServiceContext, admin: Admin, user: User, options: SuspensionOptions = {}): Promise<User> {
  assertMaySuspend(admin, user);
  const suspended = await suspendAccount(tx.db, user, options.now);
  await auditUserChange(tx, options.before ?? user, suspended);
  const note = options.note ? ` ${options.note}` : "";
  await notify(tx, {
    userId: user.id,
    type: "SECURITY",
    title: "Your account is suspended",
    body: `Our moderators suspended your account${options.report ? ` after a report of ${options.report.words}` : ""}: you are signed out everywhere and your API keys no longer work.${note} Contact support to ask for a review.`,
    data: options.report ? { reportId: options.report.id, action: "SUSPEND_USER" } : { action: "SUSPEND_USER" },
  });
  return suspended;
}

/**
 * Lifts a suspension (the row locked by the caller): the rules of assertMayUnsuspend; the user may sign
 * in again, the revoked sessions and keys stay revoked; audited and told when there was one to lift.
 */
export async function unsuspendUser(tx: ServiceContext, admin: Admin, user: User, options: Pick<SuspensionOptions, "before"> = {}): Promise<User> {
  assertMayUnsuspend(admin, user);
  if (!user.suspendedAt) return user;
  const lifted = await unsuspendAccount(tx.db, user);
  await auditUserChange(tx, options.before ?? user, lifted);
  await notify(tx, {
    userId: user.id,
    type: "SECURITY",
    title: "Your account is no longer suspended",
    body: "An administrator lifted the suspension of your account. You can sign in again; create new API keys if you need them.",
    data: { action: "UNSUSPEND_USER" },
  });
  return lifted;
}
