"use server";

import { revalidatePath } from "next/cache";
import { formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { accountEndpoints } from "@/lib/http/endpoints/account";
import { accountDetailsInput, updateMe } from "@/lib/services/auth";

/** PATCH /auth/me: name and phone. The form always sends all three, so a cleared name is "Required", not "unchanged". */
export const updateProfileAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  accountEndpoints.updateMe,
  { returnTo: "/dashboard/account", input: accountDetailsInput, values: ["firstName", "lastName", "phone"] },
  async ({ ctx, input }) => {
    const saved = await updateMe(ctx, input);
    revalidatePath("/dashboard", "layout");
    return formSuccess("Your profile is saved.", { firstName: saved.firstName, lastName: saved.lastName, phone: saved.phone ?? "" });
  },
);
