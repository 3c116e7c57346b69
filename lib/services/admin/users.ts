import { and, count, eq, ilike, inArray, isNotNull, isNull, like, or, sql, type SQL } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { User } from "@/db/schema";
import { recordAudit } from "@/lib/services/audit";
import { requireAdmin, type ServiceContext, withTransaction } from "@/lib/services/context";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/services/errors";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";
import { notify } from "@/lib/services/notifications";
import { assertMaySuspend, suspendUser, unsuspendUser } from "@/lib/services/users";
import type { AdminUser, AdminUserFilters, UpdateAdminUserInput, UserRole } from "./schemas";

const USER_NOT_FOUND = "User not found.";

/** A LIKE pattern matching `text` literally anywhere: `\`, `%` and `_` escaped (backslash is LIKE's default escape). */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Shorter searches have no trigram to look up (pg_trgm needs three characters): they match the address's start. */
export const TRIGRAM_SEARCH_MIN_LENGTH = 3;

/**
 * The admin user search's condition, written as the indexes in db/schema/users.ts expect it: three or more
 * characters anywhere in the e-mail address or in "first last" (pg_trgm GIN indexes), fewer at the start of
 * the e-mail address (lower(email) text_pattern_ops).
 */
function searchFilter(search: string): SQL {
  const { users } = schema;
  if (search.length < TRIGRAM_SEARCH_MIN_LENGTH) return like(sql`lower(${users.email})`, prefixPattern(search.toLowerCase()));
  const pattern = containsPattern(search);
  return or(ilike(users.email, pattern), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern))!;
}

/** A LIKE pattern matching what starts with `text` literally. */
export function prefixPattern(text: string): string {
  return `${escapeLike(text)}%`;
}

function toAdminUser(user: User, tagCount: number): AdminUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    emailVerified: user.emailVerified,
    twoFactorEnabled: user.twoFactorEnabled,
    subscription: user.subscription,
    suspended: Boolean(user.suspendedAt),
    suspendedAt: user.suspendedAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    tagCount,
  };
}

async function tagCounts(db: Executor, userIds: string[]): Promise<Map<string, number>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .select({ ownerId: schema.tags.ownerId, n: count() })
    .from(schema.tags)
    .where(inArray(schema.tags.ownerId, userIds))
    .groupBy(schema.tags.ownerId);
  return new Map(rows.map((row) => [row.ownerId!, Number(row.n)]));
}

export interface AdminUserQuery extends AdminUserFilters, PageRequest {}

const userOrder: ListOrder<User> = {
  name: "admin-users",
  keys: [
    { column: schema.users.createdAt, direction: "desc", type: "timestamp" },
    { column: schema.users.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.createdAt, row.id],
};

/**
 * GET /admin/users: every account, newest first. `search` is a case-insensitive part of the e-mail address,
 * the first or last name or "first last" (LIKE wildcards in it match themselves), and a search of one or two
 * characters the start of the e-mail address; `role` and `suspended` narrow.
 */
export async function listUsersForAdmin(ctx: ServiceContext, query: AdminUserQuery): Promise<Page<AdminUser>> {
  requireAdmin(ctx);
  const { users } = schema;
  const filters: SQL[] = [];
  if (query.search) filters.push(searchFilter(query.search));
  if (query.role) filters.push(eq(users.role, query.role));
  if (query.suspended !== undefined) filters.push(query.suspended ? isNotNull(users.suspendedAt) : isNull(users.suspendedAt));
  const where = filters.length ? and(...filters) : undefined;
  const plan = keysetPage(userOrder, [query.search ?? null, query.role ?? null, query.suspended ?? null], query);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(users)
      .where(and(where, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(users).where(where)),
  ]);
  const counts = await tagCounts(
    ctx.db,
    rows.map((row) => row.id),
  );
  return plan.finish(rows, (row) => toAdminUser(row, counts.get(row.id) ?? 0), total);
}

const roleWords: Record<UserRole, string> = { USER: "a user", ADMIN: "an admin", SUPER_ADMIN: "a super admin" };

/**
 * PATCH /admin/users/:id { role?, suspended? }.
 * - role: SUPER_ADMIN callers only (an ADMIN sending role is 403); your own role is 403; demoting the last
 *   SUPER_ADMIN is 409. The SUPER_ADMIN rows are locked first, so two super admins demoting each other at
 *   once cannot leave none.
 * - suspended: the suspension rules of assertMaySuspend (403), yourself included. Suspending revokes every
 *   session and API key; lifting it lets the user sign in again.
 * Every change is audited (`user.update`, role and suspendedAt before and after) and the user is told
 * (SECURITY notification). Sending what is already so changes nothing and tells no one, but is audited
 * all the same: the log records every admin action.
 */
export async function updateUserAsAdmin(ctx: ServiceContext, userId: string, input: UpdateAdminUserInput, now = new Date()): Promise<AdminUser> {
  const admin = requireAdmin(ctx);
  if (input.role !== undefined && admin.role !== "SUPER_ADMIN") throw new ForbiddenError("Only a super admin can change roles.");
  if (userId === admin.userId) {
    throw new ForbiddenError(input.role !== undefined ? "You cannot change your own role." : "You cannot suspend your own account.");
  }
  return withTransaction(ctx, async (tx) => {
    const { users } = schema;
    // Locks in id order: the target, and with a role change every SUPER_ADMIN (the last-one rule reads them).
    // NO KEY UPDATE, not UPDATE: the audit entry's and the notification's foreign keys take KEY SHARE locks on
    // the acting admin's and the user's rows, and a FOR UPDATE held by a concurrent call would deadlock with them.
    const lockWhere = input.role !== undefined ? or(eq(users.id, userId), eq(users.role, "SUPER_ADMIN")) : eq(users.id, userId);
    const locked = await tx.db.select().from(users).where(lockWhere).orderBy(users.id).for("no key update");
    const user = locked.find((row) => row.id === userId);
    if (!user) throw new NotFoundError(USER_NOT_FOUND);

    let current = user;
    if (input.role !== undefined && input.role !== user.role) {
      const otherSupers = locked.filter((row) => row.role === "SUPER_ADMIN" && row.id !== user.id);
      if (user.role === "SUPER_ADMIN" && otherSupers.length === 0) throw new ConflictError("This is the last super admin: promote someone else first.");
      // The acting admin's role was read before the lock; one demoted meanwhile acts no longer.
      if (!otherSupers.some((row) => row.id === admin.userId)) throw new ForbiddenError("Only a super admin can change roles.");
      const [updated] = await tx.db.update(users).set({ role: input.role }).where(eq(users.id, user.id)).returning();
      current = updated!;
    }
    // Suspending or lifting audits the whole change (role included) and tells the user.
    let audited = false;
    if (input.suspended === true && !current.suspendedAt) {
      current = await suspendUser(tx, admin, current, { now, before: user });
      audited = true;
    } else if (input.suspended === false && current.suspendedAt) {
      current = await unsuspendUser(tx, admin, current, { before: user });
      audited = true;
    }
    // Nothing to change, but the rules still apply: an ADMIN may not even confirm an admin's state.
    else if (input.suspended !== undefined) assertMaySuspend(admin, current);

    const roleChanged = current.role !== user.role;
    if (!audited) {
      await recordAudit(tx, {
        action: "user.update",
        entityType: "user",
        entityId: user.id,
        before: { role: user.role, suspendedAt: user.suspendedAt },
        after: { role: current.role, suspendedAt: current.suspendedAt },
      });
    }
    if (roleChanged) {
      await notify(tx, {
        userId: user.id,
        type: "SECURITY",
        title: "Your account role changed",
        body: `An administrator made you ${roleWords[current.role]} (you were ${roleWords[user.role]}).`,
        data: { action: "ROLE_CHANGED", role: current.role, previousRole: user.role },
      });
    }
    return toAdminUser(current, (await tagCounts(tx.db, [user.id])).get(user.id) ?? 0);
  });
}
