import { and, eq, gt, isNull } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { hashToken, randomToken } from "@/lib/auth/tokens";
import { ValidationError } from "@/lib/services/errors";

export type UserTokenPurpose = "EMAIL_VERIFICATION" | "PASSWORD_RESET";

export const USER_TOKEN_TTL_MS: Record<UserTokenPurpose, number> = {
  EMAIL_VERIFICATION: 24 * 60 * 60 * 1000,
  PASSWORD_RESET: 60 * 60 * 1000,
};

/** Issues a single-use token (stored hashed); earlier unused tokens of the same purpose stop working. */
export async function issueUserToken(db: Executor, userId: string, purpose: UserTokenPurpose, now = new Date()): Promise<string> {
  await retireUserTokens(db, userId, purpose, now);
  const token = randomToken(32);
  await db.insert(schema.userTokens).values({ userId, purpose, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + USER_TOKEN_TTL_MS[purpose]), createdAt: now });
  return token;
}

/** Makes a user's unused tokens of one purpose stop working (marked used). */
export async function retireUserTokens(db: Executor, userId: string, purpose: UserTokenPurpose, now = new Date()): Promise<void> {
  await db
    .update(schema.userTokens)
    .set({ usedAt: now })
    .where(and(eq(schema.userTokens.userId, userId), eq(schema.userTokens.purpose, purpose), isNull(schema.userTokens.usedAt)));
}

/**
 * Marks the token used and returns its user id. Unknown, used and expired tokens are one answer:
 * 400 VALIDATION_ERROR on `token` (decisions.md). The update is the check, so two racing uses can't both win.
 */
export async function consumeUserToken(db: Executor, token: string, purpose: UserTokenPurpose, now = new Date()): Promise<string> {
  const [row] = await db
    .update(schema.userTokens)
    .set({ usedAt: now })
    .where(and(eq(schema.userTokens.tokenHash, hashToken(token)), eq(schema.userTokens.purpose, purpose), isNull(schema.userTokens.usedAt), gt(schema.userTokens.expiresAt, now)))
    .returning({ userId: schema.userTokens.userId });
  if (!row) throw ValidationError.field("token", "This link is invalid, expired or already used.");
  return row.userId;
}
