"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { errorState, formError, invalidFields, waitMessage } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { signIn } from "@/lib/auth/next-auth";
import { clientIp } from "@/lib/http/client-ip";
import { describeError, log } from "@/lib/log";
import { checkRateLimits } from "@/lib/ratelimit";
import { createAccount } from "@/lib/services/auth/register";
import { emailSchema, passwordSchema, personNameSchema } from "@/lib/services/auth/schemas";
import { systemContext } from "@/lib/services/context";
import { ConflictError } from "@/lib/services/errors";
import { safeNextPath } from "../login/safe-next";

const registerForm = z.object({
  firstName: personNameSchema,
  lastName: personNameSchema,
  email: z.string().trim().pipe(emailSchema),
  password: passwordSchema,
});

/**
 * Sign-up: the same account creation as POST /auth/register (and its rate limits), then a web
 * sign-in through next-auth, then the dashboard, which asks to confirm the e-mail address.
 */
export async function registerAction(previous: FormState, formData: FormData): Promise<FormState> {
  const raw = {
    firstName: formText(formData, "firstName"),
    lastName: formText(formData, "lastName"),
    email: formText(formData, "email"),
    password: formText(formData, "password"),
  };
  const values = { firstName: raw.firstName, lastName: raw.lastName, email: raw.email };
  const parsed = registerForm.safeParse(raw);
  if (!parsed.success) return invalidFields(parsed.error, values);

  const limit = await checkRateLimits(["auth", "registration"], { ip: clientIp(await headers()) });
  if (!limit.allowed) return formError(waitMessage(limit.retryAfter), values);

  try {
    await createAccount(systemContext(), parsed.data);
  } catch (error) {
    if (error instanceof ConflictError) {
      return formError("Check the fields marked below.", values, { email: ["An account with this e-mail address already exists. Sign in, or reset the password if you forgot it."] });
    }
    return errorState(error, values);
  }

  try {
    await signIn("credentials", { email: parsed.data.email, password: parsed.data.password, redirect: false });
  } catch (error) {
    // The account exists; signing in can still be done by hand.
    log.error("sign-in after sign-up failed", describeError(error));
    redirect("/login?next=%2Fdashboard");
  }
  const next = safeNextPath(formText(formData, "next"));
  redirect(next ? `/dashboard?welcome=1&next=${encodeURIComponent(next)}` : "/dashboard?welcome=1");
}
