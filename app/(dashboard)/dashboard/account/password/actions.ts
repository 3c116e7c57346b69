"use server";

import { z } from "zod";
import { errorState, formError, formSuccess, invalidFields } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { requireUserContext } from "@/lib/auth/page-context";
import { changePassword } from "@/lib/services/auth/password";
import { passwordSchema } from "@/lib/services/auth/schemas";
import { UnauthorizedError } from "@/lib/services/errors";

const changeForm = z
  .object({ currentPassword: z.string().min(1, "Enter your current password."), newPassword: passwordSchema, confirmPassword: z.string() })
  .refine((form) => form.newPassword === form.confirmPassword, { path: ["confirmPassword"], message: "The two new passwords do not match." });

/** POST /auth/change-password: keeps this session, ends the others. */
export async function changePasswordAction(previous: FormState, formData: FormData): Promise<FormState> {
  const ctx = await requireUserContext("/dashboard/account/password");
  const parsed = changeForm.safeParse({
    currentPassword: formText(formData, "currentPassword"),
    newPassword: formText(formData, "newPassword"),
    confirmPassword: formText(formData, "confirmPassword"),
  });
  if (!parsed.success) return invalidFields(parsed.error);
  try {
    const { message } = await changePassword(ctx, { currentPassword: parsed.data.currentPassword, newPassword: parsed.data.newPassword });
    return formSuccess(message);
  } catch (error) {
    if (error instanceof UnauthorizedError) return formError("Check the fields marked below.", undefined, { currentPassword: [error.message] });
    return errorState(error);
  }
}
