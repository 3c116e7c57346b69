import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getDatabase } from "@/db/client";
import { clientIp } from "./client-ip";
import { describeError, log } from "@/lib/log";
import { checkRateLimits } from "@/lib/ratelimit";
import { authSecret } from "@/lib/secrets";
import { systemContext } from "@/lib/services/context";
import { DomainError } from "@/lib/services/errors";
import { findLiveSession, login, revokeSessionById } from "@/lib/services/auth";
import { SESSION_MAX_AGE_SECONDS, secureCookies } from "@/lib/auth/session-cookie";

/** Why a web sign-in failed, as a stable code the sign-in page turns into a message. */
export type SignInErrorCode = "credentials" | "two_factor_required" | "two_factor_invalid" | "rate_limited" | "suspended";

class SignInError extends CredentialsSignin {
  constructor(code: SignInErrorCode) {
    super();
    this.code = code;
  }
}

function signInErrorCode(error: DomainError): SignInErrorCode {
  switch (error.code) {
    case "TWO_FACTOR_REQUIRED":
      return "two_factor_required";
    case "RATE_LIMIT_EXCEEDED":
      return "rate_limited";
    case "FORBIDDEN":
      return "suspended";
    default:
      return /two-factor/i.test(error.message) ? "two_factor_invalid" : "credentials";
  }
}

const field = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * Web sign-in: next-auth with the JWT strategy over our sessions table. The Credentials provider calls
 * the same login service as POST /auth/login (password, lockout, TOTP step) and records a WEB
 * session; the cookie carries its id (`sid`) and counts only while that session is live, so logout
 * from the API or the account page ends it, and signOut here revokes it for the API too.
 * Lazily configured, so `next build` never reads secrets.
 */
export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: authSecret(),
  trustHost: true,
  useSecureCookies: secureCookies(),
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/login" },
  // A refused sign-in is an expected outcome, not a server error worth a stack trace in the logs.
  logger: {
    error: (error) => {
      if (error instanceof CredentialsSignin || (error as { type?: string }).type === "CredentialsSignin") return;
      log.error("next-auth error", describeError(error));
    },
    warn: (code) => log.warn("next-auth warning", { code }),
  },
  providers: [
    Credentials({
      credentials: { email: {}, password: {}, twoFactorCode: {} },
      authorize: async (credentials, request) => {
        const ctx = systemContext(getDatabase().db);
        const ip = clientIp(request.headers);
        // The API's per-IP auth limit applies to web sign-in too (this endpoint is reachable directly).
        const limit = await checkRateLimits(["auth"], { ip });
        if (!limit.allowed) throw new SignInError("rate_limited");
        try {
          const { user, session } = await login(
            ctx,
            { email: field(credentials.email), password: field(credentials.password), twoFactorCode: field(credentials.twoFactorCode) || undefined },
            { kind: "WEB", client: { userAgent: request.headers.get("user-agent"), ip } },
          );
          return { id: user.id, email: user.email, name: `${user.firstName} ${user.lastName}`, sid: session.id };
        } catch (error) {
          if (error instanceof DomainError && error.code !== "INTERNAL_ERROR" && error.code !== "SERVICE_UNAVAILABLE") throw new SignInError(signInErrorCode(error));
          throw error;
        }
      },
    }),
  ],
  callbacks: {
    jwt: async ({ token, user }) => {
      if (user && "sid" in user && typeof user.sid === "string") return { ...token, sid: user.sid };
      if (typeof token.sid !== "string") return null;
      // Returning null from `jwt` (not `session`) is what ends a next-auth session.
      const live = await findLiveSession(getDatabase().db, token.sid);
      if (!live || live.user.suspendedAt || live.user.id !== token.sub) return null;
      return token;
    },
    session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub ?? "" }, sessionId: typeof token.sid === "string" ? token.sid : undefined }),
  },
  events: {
    signOut: async (message) => {
      const sid = "token" in message ? message.token?.sid : undefined;
      if (typeof sid === "string") await revokeSessionById(getDatabase().db, sid);
    },
  },
}));
