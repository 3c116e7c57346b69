"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { formError } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { resetPassword, resetPasswordInput } from "@/lib/services/auth";
import { ValidationError } from "@/lib/services/errors";
import { authEndpoints } from "@/lib/http/endpoints";

/** POST /auth/reset-password's body, plus the form's second copy of the new password. */
const resetForm = resetPasswordInput
  .extend({ confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, { path: ["confirmPassword"], message: "The two passwords do not match." });

export const resetPasswordAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  authEndpoints.resetPassword,
  {
    auth: "system",
    input: resetForm,
    onInvalid: (error) => (error.issues.some((issue) => issue.path[0] === "token") ? formError("This reset link is incomplete. Open the link from the e-mail again.") : undefined),
    onError: (error) =>
      error instanceof ValidationError && (error.details as { fieldErrors?: Record<string, unknown> }).fieldErrors?.token
        ? formError("This reset link is invalid, has expired or was already used. Ask for a new one below.")
        : undefined,
  },
  async ({ ctx, input }) => {
    await resetPassword(ctx, { token: input.token, password: input.password });
    redirect("/login?notice=password-reset");
  },
);
