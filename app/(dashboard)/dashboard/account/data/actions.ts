"use server";

import { z } from "zod";
import { formError } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { signOut } from "@/lib/http/next-auth";
import { action } from "@/lib/forms/action";
import { accountEndpoints } from "@/lib/http/endpoints/account";
import { deleteMe, deleteMeInput } from "@/lib/services/auth";
import { UnauthorizedError } from "@/lib/services/errors";

const DELETE_CONFIRMATION = "DELETE";

/** DELETE /auth/me's body, plus the typed confirmation. */
const deleteForm = deleteMeInput.extend({
  confirmation: z.string().trim().refine((value) => value === DELETE_CONFIRMATION, `Type ${DELETE_CONFIRMATION} in capital letters to confirm.`),
});

/** DELETE /auth/me with the current password and a typed confirmation; then this browser is signed out. */
export const deleteAccountAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  accountEndpoints.deleteMe,
  {
    returnTo: "/dashboard/account/data",
    input: deleteForm,
    values: ["confirmation"],
    onError: (error, values) => (error instanceof UnauthorizedError ? formError("Check the fields marked below.", values, { currentPassword: [error.message] }) : undefined),
  },
  async ({ ctx, input }) => {
    await deleteMe(ctx, { currentPassword: input.currentPassword });
    await signOut({ redirectTo: "/login?notice=account-deleted" });
    return { status: "success" };
  },
);
