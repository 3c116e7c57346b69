"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthError, CredentialsSignin } from "next-auth";
import { formError, waitMessage } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { clientIp } from "@/lib/http/client-ip";
import { describeError, log } from "@/lib/log";
import { signIn, type SignInErrorCode } from "@/lib/auth/next-auth";
import { checkRateLimits } from "@/lib/ratelimit";
import { safeNextPath } from "./safe-next";

export type LoginStep = "password" | "code";
export type LoginState = FormState & { step: LoginStep };

const messages: Record<Exclude<SignInErrorCode, "two_factor_required">, string> = {
  credentials: "The e-mail address or password is incorrect.",
  two_factor_invalid: "That code is invalid or was already used. Enter the current code from your app, or an unused backup code.",
  rate_limited: "Too many failed attempts for this account. Sign-in is locked for up to 15 minutes; try again later or reset your password.",
  suspended: "This account is suspended. Contact support if you think this is a mistake.",
};

/**
 * Sign-in in one or two steps. Without a code the password is checked; an account with two-factor
 * on answers { step: "code" } and the page asks for the code, sending the e-mail and password again
 * with it (they stay in the browser's memory, never in the answer). Success goes to `next` when it is
 * a path on this site, else to the dashboard.
 */
export async function signInAction(previous: LoginState, formData: FormData): Promise<LoginState> {
  const email = formText(formData, "email").trim();
  const password = formText(formData, "password");
  const codeStep = formData.has("twoFactorCode");
  const twoFactorCode = formText(formData, "twoFactorCode").replace(/\s+/g, "");
  const next = safeNextPath(formText(formData, "next"));
  const values = { email };
  const step: LoginStep = codeStep ? "code" : "password";

  const fieldErrors: Record<string, string[]> = {};
  if (!email) fieldErrors.email = ["Enter your e-mail address."];
  if (!password) fieldErrors.password = ["Enter your password."];
  if (codeStep && !twoFactorCode) fieldErrors.twoFactorCode = ["Enter the 6-digit code or a backup code."];
  if (Object.keys(fieldErrors).length > 0) {
    const missingCredentials = Boolean(fieldErrors.email || fieldErrors.password);
    return { ...formError("Check the fields marked below.", values, fieldErrors), step: missingCredentials && !codeStep ? "password" : step };
  }

  // Peek only: the Credentials provider counts the attempt (it is reachable without this page too).
  const limit = await checkRateLimits(["auth"], { ip: clientIp(await headers()) }, { consume: false });
  if (!limit.allowed) return { ...formError(waitMessage(limit.retryAfter), values), step };

  try {
    await signIn("credentials", { email, password, twoFactorCode: codeStep ? twoFactorCode : "", redirect: false });
  } catch (error) {
    if (error instanceof CredentialsSignin) {
      const code = error.code as SignInErrorCode;
      if (code === "two_factor_required") return { status: "idle", values, step: "code" };
      if (code === "two_factor_invalid") return { ...formError("The code was not accepted.", values, { twoFactorCode: [messages.two_factor_invalid] }), step: "code" };
      return { ...formError(messages[code] ?? messages.credentials, values), step: "password" };
    }
    if (error instanceof AuthError) {
      log.error("web sign-in failed", describeError(error.cause instanceof Error ? error.cause : error));
      return { ...formError("Signing in failed on our side. Please try again in a moment.", values), step };
    }
    throw error;
  }
  redirect(next ?? "/dashboard");
}
