"use server";

import { formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { sendVerification } from "@/lib/services/auth";
import { authEndpoints } from "@/lib/http/endpoints";

const resend = action.for(authEndpoints.sendVerification, { returnTo: "/dashboard" }, async ({ ctx }) => {
  const { message } = await sendVerification(ctx);
  return formSuccess(message);
});

/** POST /auth/send-verification from the dashboard notice; the same limit as the API. */
export async function resendVerificationAction(): Promise<FormState> {
  return resend({ status: "idle" }, new FormData());
}
