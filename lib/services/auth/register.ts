import { schema } from "@/db/client";
import { hashPassword } from "@/lib/auth/password";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { ConflictError, isUniqueViolation } from "@/lib/services/errors";
import { createSession, type ClientInfo } from "./sessions";
import { toPublicUser } from "./users";
import { issueEmailVerification } from "./verification";
import { findUserByEmail } from "./queries";

export interface RegisterInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

const EMAIL_TAKEN = "An account with this e-mail address already exists.";


/**
 * Creates the account (role USER, unverified, FREE) and queues the verification e-mail, in the
 * caller's transaction. The web sign-up calls this and then signs in through next-auth.
 */
export async function createAccount(ctx: ServiceContext, input: RegisterInput) {
  const email = input.email.trim().toLowerCase();
  if (await findUserByEmail(ctx.db, email)) throw new ConflictError(EMAIL_TAKEN);
  const passwordHash = await hashPassword(input.password);
  try {
    return await withTransaction(ctx, async (tx) => {
      const [user] = await tx.db.insert(schema.users).values({ email, passwordHash, firstName: input.firstName, lastName: input.lastName }).returning();
      if (!user) throw new Error("user insert returned nothing");
      await issueEmailVerification(tx, user);
      return user;
    });
  } catch (error) {
    // Two registrations racing for one address: the unique index decides.
    if (isUniqueViolation(error)) throw new ConflictError(EMAIL_TAKEN);
    throw error;
  }
}

/** POST /auth/register: creates the account and signs in (an API session with tokens). */
export async function register(ctx: ServiceContext, input: RegisterInput, client: ClientInfo) {
  return withTransaction(ctx, async (tx) => {
    const user = await createAccount(tx, input);
    const { session, tokens } = await createSession(tx, { userId: user.id, kind: "API", client });
    return { user: toPublicUser(user), session, tokens: tokens! };
  });
}
