"use server";

import { z } from "zod";
import { errorState, formError, invalidFields } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { signOut } from "@/lib/auth/next-auth";
import { requireUserContext } from "@/lib/auth/page-context";
import { deleteMe } from "@/lib/services/auth/account";
import { UnauthorizedError } from "@/lib/services/errors";

const DELETE_CONFIRMATION = "DELETE";

const deleteForm = z.object({
  currentPassword: z.string().min(1, "Enter your current password."),
  confirmation: z.string().trim().refine((value) => value === DELETE_CONFIRMATION, `Type ${DELETE_CONFIRMATION} in capital letters to confirm.`),
});

/** DELETE /auth/me with the current password and a typed confirmation; then this browser is signed out. */
export async function deleteAccountAction(previous: FormState, formData: FormData): Promise<FormState> {
  const ctx = await requireUserContext("/dashboard/account/data");
  const values = { confirmation: formText(formData, "confirmation") };
  const parsed = deleteForm.safeParse({ currentPassword: formText(formData, "currentPassword"), confirmation: values.confirmation });
  if (!parsed.success) return invalidFields(parsed.error, values);
  try {
    await deleteMe(ctx, { currentPassword: parsed.data.currentPassword });
  } catch (error) {
    if (error instanceof UnauthorizedError) return formError("Check the fields marked below.", values, { currentPassword: [error.message] });
    return errorState(error, values);
  }
  await signOut({ redirectTo: "/login?notice=account-deleted" });
  return { status: "success" };
}
