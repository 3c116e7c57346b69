"use server";

import { revalidatePath } from "next/cache";
import { rowAction } from "@/lib/forms/action";
import { adminPlatformEndpoints } from "@/lib/http/endpoints/admin-platform";
import { errorNotice } from "@/lib/http/page-input";
import { updateUserAsAdmin } from "@/lib/services/admin";
import type { DomainError } from "@/lib/services/errors";
import { backToUsers, USERS_PATH } from "./users-path";

const fields = { id: "userId" } as const;
const notices = errorNotice({ FORBIDDEN: "forbidden", CONFLICT: "last-super-admin", NOT_FOUND: "missing" });

/** What went wrong, as a notice the page explains; an unexpected error goes to the error page. */
function failureNotice(error: DomainError, formData: FormData): string | undefined {
  const notice = notices(error);
  return notice ? backToUsers(formData, notice) : undefined;
}

/** PATCH /admin/users/:id { suspended } from the suspend / unsuspend buttons. */
export const setSuspensionAction: (formData: FormData) => Promise<void> = rowAction.for(
  adminPlatformEndpoints.updateUser,
  { fields, returnTo: USERS_PATH, onError: failureNotice, revalidate: () => revalidatePath(USERS_PATH) },
  async ({ ctx, params, input, formData }) => {
    const user = await updateUserAsAdmin(ctx, params.id, { suspended: input.suspended });
    return backToUsers(formData, user.suspended ? "suspended" : "unsuspended");
  },
);

/** PATCH /admin/users/:id { role } from the role select (shown to super admins only; the service checks again). */
export const changeRoleAction: (formData: FormData) => Promise<void> = rowAction.for(
  adminPlatformEndpoints.updateUser,
  { fields, returnTo: USERS_PATH, onError: failureNotice, revalidate: () => revalidatePath(USERS_PATH) },
  async ({ ctx, params, input, formData }) => {
    await updateUserAsAdmin(ctx, params.id, { role: input.role });
    return backToUsers(formData, "role-changed");
  },
);
