"use server";

import { z } from "zod";
import { formError, formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { accountEndpoints } from "@/lib/http/endpoints/account";
import { changePassword, changePasswordInput } from "@/lib/services/auth";
import { UnauthorizedError } from "@/lib/services/errors";

/** POST /auth/change-password's body, plus the form's second copy of the new password. */
const changeForm = changePasswordInput
  .extend({ confirmPassword: z.string() })
  .refine((form) => form.newPassword === form.confirmPassword, { path: ["confirmPassword"], message: "The two new passwords do not match." });

/** POST /auth/change-password: keeps this session, ends the others. */
export const changePasswordAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  accountEndpoints.changePassword,
  {
    returnTo: "/dashboard/account/password",
    input: changeForm,
    onError: (error) => (error instanceof UnauthorizedError ? formError("Check the fields marked below.", undefined, { currentPassword: [error.message] }) : undefined),
  },
  async ({ ctx, input }) => {
    const { message } = await changePassword(ctx, { currentPassword: input.currentPassword, newPassword: input.newPassword });
    return formSuccess(message);
  },
);
