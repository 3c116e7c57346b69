"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { rowAction } from "@/lib/forms/action";
import { updateAdminUserInput, updateUserAsAdmin } from "@/lib/services/admin";
import type { DomainError } from "@/lib/services/errors";
import { backToUsers, USERS_PATH } from "./users-path";

const userParams = z.object({ userId: z.uuid() });

/** What went wrong, as a notice the page explains; an unexpected error goes to the error page. */
function failureNotice(error: DomainError, formData: FormData): string | undefined {
  const notice = { FORBIDDEN: "forbidden", CONFLICT: "last-super-admin", NOT_FOUND: "missing" }[error.code as string];
  return notice ? backToUsers(formData, notice) : undefined;
}

/** PATCH /admin/users/:id { suspended } from the suspend / unsuspend buttons. */
export const setSuspensionAction: (formData: FormData) => Promise<void> = rowAction(
  { auth: "admin", returnTo: USERS_PATH, params: userParams, input: updateAdminUserInput, onError: failureNotice, revalidate: () => revalidatePath(USERS_PATH) },
  async ({ ctx, params, input, formData }) => {
    const user = await updateUserAsAdmin(ctx, params.userId, { suspended: input.suspended });
    return backToUsers(formData, user.suspended ? "suspended" : "unsuspended");
  },
);

/** PATCH /admin/users/:id { role } from the role select (shown to super admins only; the service checks again). */
export const changeRoleAction: (formData: FormData) => Promise<void> = rowAction(
  { auth: "admin", returnTo: USERS_PATH, params: userParams, input: updateAdminUserInput, onError: failureNotice, revalidate: () => revalidatePath(USERS_PATH) },
  async ({ ctx, params, input, formData }) => {
    await updateUserAsAdmin(ctx, params.userId, { role: input.role });
    return backToUsers(formData, "role-changed");
  },
);
