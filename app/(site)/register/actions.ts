"use server";

import { redirect } from "next/navigation";
import { formError } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { signIn } from "@/lib/http/next-auth";
import { action } from "@/lib/forms/action";
import { describeError, log } from "@/lib/log";
import { createAccount } from "@/lib/services/auth";
import { ConflictError } from "@/lib/services/errors";
import { safeNextPath } from "../login/safe-next";
import { authEndpoints } from "@/lib/http/endpoints";

/**
 * Sign-up: the same account creation as POST /auth/register (and its rate limits), then a web
 * sign-in through next-auth, then the page the visitor came from (`next`: the cart's checkout, say), or
 * else the dashboard's welcome, which asks to confirm the e-mail address.
 */
export const registerAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  authEndpoints.register,
  {
    auth: "system",
    values: ["firstName", "lastName", "email"],
    onError: (error, values) =>
      error instanceof ConflictError
        ? formError("Check the fields marked below.", values, { email: ["An account with this e-mail address already exists. Sign in, or reset the password if you forgot it."] })
        : undefined,
  },
  async ({ ctx, input, formData }) => {
    await createAccount(ctx, input);
    try {
      await signIn("credentials", { email: input.email, password: input.password, redirect: false });
    } catch (error) {
      // The account exists; signing in can still be done by hand.
      log.error("sign-in after sign-up failed", describeError(error));
      redirect("/login?next=%2Fdashboard");
    }
    const next = safeNextPath(formText(formData, "next"));
    // Straight back to what they were doing (the dashboard still asks to confirm the address later).
    redirect(next ?? "/dashboard?welcome=1");
  },
);
