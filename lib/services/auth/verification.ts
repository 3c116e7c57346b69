import { createElement } from "react";
import { and, eq } from "drizzle-orm";
import { schema } from "@/db/client";
import type { User } from "@/db/schema";
import { VerifyEmail } from "@/emails/verify-email";
import { queueEmail } from "@/lib/email/queue";
import { hashToken } from "@/lib/auth/tokens";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";
import { consumeUserToken, getUserById, issueUserToken } from "./queries";

export const ALREADY_CONFIRMED_MESSAGE = "Your e-mail address is already confirmed.";

/** Issues a verification token and queues its e-mail, in the caller's transaction. */
export async function issueEmailVerification(ctx: ServiceContext, user: Pick<User, "id" | "email" | "firstName">): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const token = await issueUserToken(tx.db, user.id, "EMAIL_VERIFICATION");
    await queueEmail(tx, {
      to: user.email,
      subject: "Confirm your e-mail address",
      template: createElement(VerifyEmail, { firstName: user.firstName, token }),
      templateName: "auth.verify-email",
    });
  });
}

/** POST /auth/send-verification. */
export async function sendVerification(ctx: ServiceContext): Promise<{ message: string }> {
  const { userId } = requireUser(ctx);
  const user = await getUserById(ctx.db, userId);
  if (user.emailVerified) return { message: ALREADY_CONFIRMED_MESSAGE };
  await issueEmailVerification(ctx, user);
  return { message: "A confirmation link is on its way to your inbox." };
}

/** POST /auth/verify-email: an unknown, used or expired token is 400 (docs/decisions/0010-verification-and-reset.md), whatever the account's state. */
export async function verifyEmail(ctx: ServiceContext, input: { token: string }): Promise<{ message: string }> {
  return withTransaction(ctx, async (tx) => {
    const userId = await consumeUserToken(tx.db, input.token, "EMAIL_VERIFICATION");
    await tx.db.update(schema.users).set({ emailVerified: true }).where(eq(schema.users.id, userId));
    return { message: "Your e-mail address is confirmed." };
  });
}

/**
 * Whether a confirmation link belongs to an account whose address is confirmed by now (the link was
 * used, or a newer link was; expired or not). A read only: the confirmation page asks it when the link
 * is opened, so mail scanners that open links change nothing.
 */
export async function emailLinkAlreadyConfirmed(ctx: ServiceContext, input: { token: string }): Promise<boolean> {
  const [row] = await ctx.db
    .select({ emailVerified: schema.users.emailVerified })
    .from(schema.userTokens)
    .innerJoin(schema.users, eq(schema.users.id, schema.userTokens.userId))
    .where(and(eq(schema.userTokens.tokenHash, hashToken(input.token)), eq(schema.userTokens.purpose, "EMAIL_VERIFICATION")));
  return row?.emailVerified ?? false;
}

/**
 * The confirmation page's button: as verifyEmail, except that a link whose account's address is
 * confirmed by now says so rather than failing, since the person following it has nothing left to do.
 * Links of unconfirmed accounts and unknown tokens still fail with verifyEmail's error.
 */
export async function confirmEmailFromLink(ctx: ServiceContext, input: { token: string }): Promise<{ message: string; alreadyConfirmed: boolean }> {
  try {
    return { ...(await verifyEmail(ctx, input)), alreadyConfirmed: false };
  } catch (error) {
    if (!(error instanceof ValidationError) || !(await emailLinkAlreadyConfirmed(ctx, input))) throw error;
    return { message: ALREADY_CONFIRMED_MESSAGE, alreadyConfirmed: true };
  }
}
