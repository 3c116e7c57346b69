import { createElement } from "react";
import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import type { User } from "@/db/schema";
import { VerifyEmail } from "@/emails/verify-email";
import { queueEmail } from "@/lib/email/queue";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { actingUser } from "./sessions";
import { consumeUserToken, issueUserToken } from "./user-tokens";
import { getUserById } from "./users";

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
  const { userId } = actingUser(ctx);
  const user = await getUserById(ctx.db, userId);
  if (user.emailVerified) return { message: "Your e-mail address is already confirmed." };
  await issueEmailVerification(ctx, user);
  return { message: "A confirmation link is on its way to your inbox." };
}

/** POST /auth/verify-email. */
export async function verifyEmail(ctx: ServiceContext, input: { token: string }): Promise<{ message: string }> {
  return withTransaction(ctx, async (tx) => {
    const userId = await consumeUserToken(tx.db, input.token, "EMAIL_VERIFICATION");
    await tx.db.update(schema.users).set({ emailVerified: true }).where(eq(schema.users.id, userId));
    return { message: "Your e-mail address is confirmed." };
  });
}
