import { createElement } from "react";
import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import type { User } from "@/db/schema";
import { NoticeEmail } from "@/emails/notice";
import { ResetPassword } from "@/emails/reset-password";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { queueEmail } from "@/lib/email/queue";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { UnauthorizedError, ValidationError } from "@/lib/services/errors";
import { underAccountLockout } from "./lockout";
import { consumeUserToken, findUserByEmail, getUserById, issueUserToken, revokeUserSessions } from "./queries";

const FORGOT_PASSWORD_MESSAGE = "If an account exists for this address, a link to reset its password is on its way.";

/**
 * Checks the signed-in user's password before an account-security action (change password, delete
 * account). A wrong password counts against the same per-account lockout as failed logins, so a stolen
 * session cannot be used to guess the password faster than the login form allows.
 */
export async function verifyCurrentPassword(ctx: ServiceContext, user: Pick<User, "email" | "passwordHash">, password: string): Promise<void> {
  const ip = ctx.actor.kind === "system" ? "system" : ctx.actor.ip;
  await underAccountLockout({ ip, email: user.email }, async () => {
    if (!(await verifyPassword(password, user.passwordHash))) throw new UnauthorizedError("The current password is incorrect.");
  });
}

/** The security notice sent after the password changed, whichever way (change or reset). */
async function queuePasswordChangedNotice(ctx: ServiceContext, user: Pick<User, "email" | "firstName">, how: "changed" | "reset"): Promise<void> {
  await queueEmail(ctx, {
    to: user.email,
    subject: "Your password was changed",
    template: createElement(NoticeEmail, {
      heading: "Your password was changed",
      paragraphs: [
        `Hi ${user.firstName}, the password of your Tag Service account was just ${how === "reset" ? "reset with an e-mailed link" : "changed"}.`,
        how === "reset" ? "Every device that was signed in has been signed out." : "Every other device that was signed in has been signed out.",
        "If this wasn't you, reset your password now and review your sessions and API keys.",
      ],
      action: { label: "Reset my password", path: "/forgot-password" },
      reason: "You receive this security notice because the password of your account changed.",
    }),
    templateName: "auth.password-changed",
  });
}

/**
 * POST /auth/forgot-password. The answer is the same whether or not the address has an account
 * (spec rule 3); for a known one, a PASSWORD_RESET token is issued and its e-mail queued together.
 */
export async function forgotPassword(ctx: ServiceContext, input: { email: string }): Promise<{ message: string }> {
  const user = await findUserByEmail(ctx.db, input.email);
  if (user) {
    await withTransaction(ctx, async (tx) => {
      const token = await issueUserToken(tx.db, user.id, "PASSWORD_RESET");
      await queueEmail(tx, {
        to: user.email,
        subject: "Reset your password",
        template: createElement(ResetPassword, { firstName: user.firstName, token }),
        templateName: "auth.reset-password",
      });
    });
  }
  return { message: FORGOT_PASSWORD_MESSAGE };
}

/**
 * POST /auth/reset-password: consumes the token (single use; unknown, used or expired → 400 on
 * `token`), sets the new password and ends every session of the account, all in one transaction.
 */
export async function resetPassword(ctx: ServiceContext, input: { token: string; password: string }): Promise<{ message: string }> {
  // Hashed before the transaction, so scrypt's ~100 ms never holds it open.
  const passwordHash = await hashPassword(input.password);
  await withTransaction(ctx, async (tx) => {
    const userId = await consumeUserToken(tx.db, input.token, "PASSWORD_RESET");
    const [user] = await tx.db.update(schema.users).set({ passwordHash }).where(eq(schema.users.id, userId)).returning();
    if (!user) throw ValidationError.field("token", "This link is invalid, expired or already used.");
    await revokeUserSessions(tx.db, userId);
    await queuePasswordChangedNotice(tx, user, "reset");
  });
  return { message: "Your password has been reset. Sign in with the new password." };
}

/**
 * POST /auth/change-password: needs the current password (401 when wrong); ends every session but
 * the one making the request.
 */
export async function changePassword(ctx: ServiceContext, input: { currentPassword: string; newPassword: string }): Promise<{ message: string }> {
  const { userId, sessionId } = requireUser(ctx);
  const user = await getUserById(ctx.db, userId);
  await verifyCurrentPassword(ctx, user, input.currentPassword);
  if (input.newPassword === input.currentPassword) throw ValidationError.field("newPassword", "The new password must differ from the current one.");
  const passwordHash = await hashPassword(input.newPassword);
  await withTransaction(ctx, async (tx) => {
    await tx.db.update(schema.users).set({ passwordHash }).where(eq(schema.users.id, userId));
    await revokeUserSessions(tx.db, userId, sessionId);
    await queuePasswordChangedNotice(tx, user, "changed");
  });
  return { message: "Your password has been changed. Other devices have been signed out." };
}
