"use server";

import { formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { forgotPassword } from "@/lib/services/auth";
import { authEndpoints } from "@/lib/http/endpoints";

/** The same answer whether or not the address has an account, as POST /auth/forgot-password. */
export const forgotPasswordAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  authEndpoints.forgotPassword,
  { auth: "system", values: ["email"] },
  async ({ ctx, input, values }) => {
    const { message } = await forgotPassword(ctx, input);
    return formSuccess(message, values);
  },
);
