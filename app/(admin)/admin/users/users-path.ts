import { cursorParam } from "@/components/dashboard/pager";
import { formText } from "@/lib/forms/form-state";
import { adminPlatformEndpoints } from "@/lib/http/endpoints/admin-platform";
import { pageQuery } from "@/lib/http/page-input";

export const USERS_PATH = "/admin/users";

/** The user list's filters as the page reads them from its query string. */
export interface UsersView {
  search?: string;
  role?: string;
  suspended?: "true" | "false";
  /** The page's cursor (the list's `nextCursor` that led here); none on the first page. */
  cursor?: string;
}

export function usersView(read: (name: string) => string | undefined): UsersView {
  const search = read("search")?.trim().slice(0, 100);
  const suspended = read("suspended");
  return {
    search: search || undefined,
    role: pageQuery(adminPlatformEndpoints.users, read).role,
    suspended: suspended === "true" || suspended === "false" ? suspended : undefined,
    cursor: cursorParam(read("cursor")),
  };
}

export function usersHref(view: UsersView, extra: Record<string, string> = {}, hash = ""): string {
  const query = new URLSearchParams({
    ...(view.search ? { search: view.search } : {}),
    ...(view.role ? { role: view.role } : {}),
    ...(view.suspended ? { suspended: view.suspended } : {}),
    ...(view.cursor ? { cursor: view.cursor } : {}),
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
