import { formText } from "@/lib/forms/form-state";
import { adminPlatformEndpoints } from "@/lib/http/endpoints/admin-platform";
import { pageQuery } from "@/lib/http/page-input";

export const USERS_PATH = "/admin/users";

/** The user list's filters as the page reads them from its query string. */
export interface UsersView {
  search?: string;
  role?: string;
  suspended?: "true" | "false";
  page: number;
}

export function usersView(read: (name: string) => string | undefined): UsersView {
  const search = read("search")?.trim().slice(0, 100);
  const suspended = read("suspended");
  const page = Number(read("page"));
  return {
    search: search || undefined,
    role: pageQuery(adminPlatformEndpoints.users, read).role,
    suspended: suspended === "true" || suspended === "false" ? suspended : undefined,
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

export function usersHref(view: UsersView, extra: Record<string, string> = {}, hash = ""): string {
  const query = new URLSearchParams({
    ...(view.search ? { search: view.search } : {}),
    ...(view.role ? { role: view.role } : {}),
    ...(view.suspended ? { suspended: view.suspended } : {}),
    ...(view.page > 1 ? { page: String(view.page) } : {}),
    ...extra,
  });
  const text = query.toString();
  return `${USERS_PATH}${text ? `?${text}` : ""}${hash}`;
}

/** Where a row form's answer goes: the view it was sent from (hidden fields), with a notice, at the user's card. */
export function backToUsers(formData: FormData, notice: string): string {
  const view = usersView((name) => formText(formData, `view-${name}`) || undefined);
  const userId = formText(formData, "userId");
  return usersHref(view, { notice }, /^[0-9a-f-]{36}$/i.test(userId) ? `#user-${userId.toLowerCase()}` : "");
}
