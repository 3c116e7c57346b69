"use server";

import { redirect } from "next/navigation";
import { AuthError, CredentialsSignin } from "next-auth";
import { z } from "zod";
import { formError } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { describeError, log } from "@/lib/log";
import { signIn, type SignInErrorCode } from "@/lib/http/next-auth";
import { safeNextPath } from "./safe-next";
import { authEndpoints } from "@/lib/http/endpoints";

export type LoginStep = "password" | "code";
export type LoginState = FormState & { step: LoginStep };

const messages: Record<Exclude<SignInErrorCode, "two_factor_required">, string> = {
  credentials: "The e-mail address or password is incorrect.",
  two_factor_invalid: "That code is invalid or was already used. Enter the current code from your app, or an unused backup code.",
  rate_limited: "Too many failed attempts for this account. Sign-in is locked for up to 15 minutes; try again later or reset your password.",
  suspended: "This account is suspended. Contact support if you think this is a mistake.",
};

/**
 * What the sign-in form must carry before the credentials are checked at all. The checking itself
 * (lengths, password, code, lockout) is the login service's, behind next-auth's Credentials provider.
 */
const signInForm = z.object({
  email: z.string().trim().min(1, "Enter your e-mail address."),
  password: z.string().min(1, "Enter your password."),
  twoFactorCode: z.string().min(1, "Enter the 6-digit code or a backup code.").optional(),
});

const isCodeStep = (formData: FormData) => formData.has("twoFactorCode");

/**
 * Sign-in in one or two steps. Without a code the password is checked; an account with two-factor
 * on answers { step: "code" } and the page asks for the code, sending the e-mail and password again
 * with it (they stay in the browser's memory, never in the answer). Success goes to `next` when it is
 * a path on this site, else to the dashboard.
 */
// Plain action(): next-auth's sign-in (a session cookie and its two-step form), not POST /auth/login's token answer.
export const signInAction: (previous: LoginState, formData: FormData) => Promise<LoginState> = action(
  {
    auth: "system",
    input: signInForm,
    read: (formData) => ({
      email: formText(formData, "email"),
      password: formText(formData, "password"),
      twoFactorCode: isCodeStep(formData) ? formText(formData, "twoFactorCode").replace(/\s+/g, "") : undefined,
    }),
    values: (formData) => ({ email: formText(formData, "email").trim() }),
    // Peek only: the Credentials provider counts the attempt (it is reachable without this page too).
    rateLimit: { policies: authEndpoints.login.rateLimit ?? [], peek: true },
    extend: (state, formData) => ({ ...state, step: isCodeStep(formData) ? "code" : "password" }),
  },
  async ({ input, values, formData }) => {
    const step: LoginStep = isCodeStep(formData) ? "code" : "password";
    const next = safeNextPath(formText(formData, "next"));
    try {
      await signIn("credentials", { email: input.email, password: input.password, twoFactorCode: input.twoFactorCode ?? "", redirect: false });
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
  },
);
