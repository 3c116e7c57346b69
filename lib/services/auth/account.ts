import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { verifyCurrentPassword } from "./password";
import type { PublicUser } from "./schemas";
import { toPublicUser } from "./users";
import { getUserById } from "./queries";

export interface UpdateMeInput {
  firstName?: string;
  lastName?: string;
  /** `null` (or an empty string) clears it. */
  phone?: string | null;
}

export type UpdatedMe = Pick<PublicUser, "id" | "email" | "firstName" | "lastName" | "phone">;

/** GET /auth/me: the full User resource. */
export async function getMe(ctx: ServiceContext): Promise<PublicUser> {
  const { userId } = requireUser(ctx);
  // route() loaded the account with the credential moments ago, in this request: no second read.
  return toPublicUser(ctx.user?.id === userId ? ctx.user : await getUserById(ctx.db, userId));
}

/**
 * PATCH /auth/me: name and phone only. Whatever else a body carries (role, emailVerified,
 * subscription …) never reaches this function: the input type has no room for it.
 */
export async function updateMe(ctx: ServiceContext, input: UpdateMeInput): Promise<UpdatedMe> {
  const { userId } = requireUser(ctx);
  const changes: Partial<Pick<typeof schema.users.$inferInsert, "firstName" | "lastName" | "phone">> = {};
  if (input.firstName !== undefined) changes.firstName = input.firstName;
  if (input.lastName !== undefined) changes.lastName = input.lastName;
  if (input.phone !== undefined) changes.phone = input.phone === null || input.phone.trim() === "" ? null : input.phone.trim();

  let user;
  if (Object.keys(changes).length > 0) {
    [user] = await ctx.db.update(schema.users).set(changes).where(eq(schema.users.id, userId)).returning();
    if (!user) throw new NotFoundError("User not found.");
  } else {
    user = await getUserById(ctx.db, userId);
  }
  return { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, phone: user.phone };
}

/**
 * DELETE /auth/me: needs the current password (401 when wrong). Deleting the user row removes
 * everything it owns in the same statement: every user-owned table references users with
 * ON DELETE CASCADE (sessions, refresh tokens, API keys, tokens, 2FA, and each later domain's rows).
 */
export async function deleteMe(ctx: ServiceContext, input: { currentPassword: string }): Promise<{ message: string }> {
  const { userId } = requireUser(ctx);
  const user = await getUserById(ctx.db, userId);
  await verifyCurrentPassword(ctx, user, input.currentPassword);
  await withTransaction(ctx, async (tx) => {
    const deleted = await tx.db.delete(schema.users).where(eq(schema.users.id, userId)).returning({ id: schema.users.id });
    if (!deleted.length) throw new NotFoundError("User not found.");
  });
  return { message: "Your account and all its data have been permanently deleted." };
}
