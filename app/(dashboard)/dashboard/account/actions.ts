"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { errorState, formSuccess, invalidFields } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { requireUserContext } from "@/lib/auth/page-context";
import { updateMe } from "@/lib/services/auth/account";
import { personNameSchema } from "@/lib/services/auth/schemas";

const profileForm = z.object({
  firstName: personNameSchema,
  lastName: personNameSchema,
  phone: z.string().trim().max(30, "At most 30 characters.").regex(/^\+?[0-9 ()-]*$/, "Use digits, spaces, (), - and an optional leading +."),
});

/** PATCH /auth/me: name and phone. */
export async function updateProfileAction(previous: FormState, formData: FormData): Promise<FormState> {
  const ctx = await requireUserContext("/dashboard/account");
  const values = { firstName: formText(formData, "firstName"), lastName: formText(formData, "lastName"), phone: formText(formData, "phone") };
  const parsed = profileForm.safeParse(values);
  if (!parsed.success) return invalidFields(parsed.error, values);
  try {
    const saved = await updateMe(ctx, { firstName: parsed.data.firstName, lastName: parsed.data.lastName, phone: parsed.data.phone || null });
    revalidatePath("/dashboard", "layout");
    return formSuccess("Your profile is saved.", { firstName: saved.firstName, lastName: saved.lastName, phone: saved.phone ?? "" });
  } catch (error) {
    return errorState(error, values);
  }
}
