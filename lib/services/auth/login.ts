import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { ForbiddenError, TwoFactorRequiredError, UnauthorizedError } from "@/lib/services/errors";
import { underAccountLockout } from "./lockout";
import { createSession, type ClientInfo, type SessionKind } from "./sessions";
import { toPublicUser } from "./users";
import { consumeSecondFactor, findUserByEmail } from "./queries";

export interface LoginInput {
  email: string;
  password: string;
  twoFactorCode?: string;
}

const INVALID_CREDENTIALS = "Invalid e-mail or password.";

let dummyHash: Promise<string> | undefined;
/** Hashed once per process: verifying against it makes an unknown e-mail cost what a wrong password costs. */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("not-a-real-password-0");
  return dummyHash;
}

/**
 * The one login used by POST /auth/login and the web sign-in (next-auth Credentials): password,
 * suspension, second factor, then a new session. Failures count against the account (10 per 15
 * minutes from any IP, then 429), whether the password or the code was wrong. The attempt is counted
 * before the password is checked and taken back when it succeeds, so simultaneous guesses cannot
 * overshoot the limit.
 */
export async function login(ctx: ServiceContext, input: LoginInput, options: { kind: SessionKind; client: ClientInfo }) {
  const email = input.email.trim().toLowerCase();
  const ip = options.client.ip ?? "unknown";
  return underAccountLockout({ ip, email }, async () => {
    const user = await findUserByEmail(ctx.db, email);
    const passwordOk = user ? await verifyPassword(input.password, user.passwordHash) : (await verifyPassword(input.password, await dummyPasswordHash()), false);
    if (!user || !passwordOk) throw new UnauthorizedError(INVALID_CREDENTIALS);
    if (user.suspendedAt) throw new ForbiddenError("This account is suspended.");

    return withTransaction(ctx, async (tx) => {
      if (user.twoFactorEnabled) {
        if (!input.twoFactorCode) throw new TwoFactorRequiredError("Enter the 6-digit code from your authenticator app, or a backup code.");
        if (!(await consumeSecondFactor(tx.db, user.id, input.twoFactorCode))) throw new UnauthorizedError("The two-factor code is invalid or was already used.");
      }
      const { session, tokens } = await createSession(tx, { userId: user.id, kind: options.kind, client: options.client });
      return { user: toPublicUser(user), session, tokens };
    });
  });
}
