import { and, desc, eq, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { NotFoundError, ValidationError } from "@/lib/services/errors";
import type { BlockedUser } from "./schemas";

const USER_NOT_FOUND = "User not found.";

async function assertOtherUser(db: Executor, actorId: string, userId: string, verb: string): Promise<void> {
  if (userId === actorId) throw ValidationError.field("userId", `You cannot ${verb} yourself.`);
  const [user] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, userId));
  if (!user) throw new NotFoundError(USER_NOT_FOUND);
}

/**
 * POST /users/block/:userId: the user can no longer contact the caller (as a signed-in finder) on any
 * of the caller's tags. Yourself 400; an unknown user 404; blocking twice is the same as once.
 */
export async function blockUser(ctx: ServiceContext, userId: string): Promise<{ message: string }> {
  const { userId: actorId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    await assertOtherUser(tx.db, actorId, userId, "block");
    await tx.db.insert(schema.userBlocks).values({ blockerId: actorId, blockedId: userId }).onConflictDoNothing();
    return { message: "The user is blocked. They can no longer contact you." };
  });
}

/** DELETE /users/block/:userId: idempotent (a user who was not blocked answers the same). */
export async function unblockUser(ctx: ServiceContext, userId: string): Promise<{ message: string }> {
  const { userId: actorId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    await assertOtherUser(tx.db, actorId, userId, "unblock");
    await tx.db.delete(schema.userBlocks).where(and(eq(schema.userBlocks.blockerId, actorId), eq(schema.userBlocks.blockedId, userId)));
    return { message: "The user is no longer blocked." };
  });
}

/**
 * GET /users/blocked: newest first. `knownAs` is the finder name the blocked user gave in the caller's
 * latest thread with them: what the owner saw of them, never their account's name.
 */
export async function listBlockedUsers(ctx: ServiceContext): Promise<BlockedUser[]> {
  const { userId } = requireUser(ctx);
  const knownAs = sql<string | null>`(
    select ${schema.threads.finderName} from ${schema.threads}
    where ${schema.threads.ownerId} = ${userId} and ${schema.threads.finderUserId} = ${schema.userBlocks.blockedId} and ${schema.threads.finderName} is not null
    order by ${schema.threads.createdAt} desc limit 1
  )`;
  const rows = await ctx.db
    .select({ userId: schema.userBlocks.blockedId, blockedAt: schema.userBlocks.createdAt, knownAs })
    .from(schema.userBlocks)
    .where(eq(schema.userBlocks.blockerId, userId))
    .orderBy(desc(schema.userBlocks.createdAt), desc(schema.userBlocks.blockedId));
  return rows.map((row) => ({ userId: row.userId, blockedAt: row.blockedAt.toISOString(), knownAs: row.knownAs ?? null }));
}
