import type { Metadata } from "next";
import { AdminHeading, FilterForm, FilterSelect, ResultCount } from "@/components/admin/list-filters";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { CursorPager, pageOrFirst } from "@/components/dashboard/pager";
import { inputClass } from "@/components/forms/field";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { listUsersForAdmin, userRoleSchema, type AdminUser, type UserRole } from "@/lib/services/admin";
import type { UserActor } from "@/lib/services/context";
import { requireAdminContext } from "../admin-context";
import { changeRoleAction, setSuspensionAction } from "./actions";
import { USERS_PATH, usersHref, usersView, type UsersView } from "./users-path";

export const metadata: Metadata = { title: "Users" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PER_PAGE = 20;

const roleLabels: Record<UserRole, string> = { USER: "User", ADMIN: "Admin", SUPER_ADMIN: "Super admin" };

/** The same rules as the service (suspendUser, unsuspendUser in the users domain): a button is drawn only where it can work. */
function maySuspend(viewer: UserActor, user: AdminUser): boolean {
  if (user.id === viewer.userId) return false;
  if (user.suspended) return user.role === "USER" || viewer.role === "SUPER_ADMIN";
  if (user.role === "SUPER_ADMIN") return false;
  return user.role === "USER" || viewer.role === "SUPER_ADMIN";
}

/** Every account: search by e-mail or name, filter by role and suspension, suspend or lift it, and (super admins) change roles. */
export default async function AdminUsersPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext(USERS_PATH);
  const viewer = ctx.actor as UserActor;
  const timeZone = await viewerTimeZone();
  const params = await searchParams;
  const view = usersView((name) => {
    const value = params[name];
    return Array.isArray(value) ? value[0] : value;
  });
  const list = await pageOrFirst(
    (cursor) =>
      listUsersForAdmin(ctx, {
        page: 1,
        limit: PER_PAGE,
        cursor,
        search: view.search,
        role: view.role as UserRole | undefined,
        suspended: view.suspended === undefined ? undefined : view.suspended === "true",
      }),
    view.cursor,
  );
  const { items, total } = list;
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  const notice = noticeFrom(params, {
    suspended: { tone: "success", text: "The account is suspended: the user is signed out everywhere and their API keys no longer work." },
    unsuspended: { tone: "success", text: "The suspension is lifted: the user can sign in again." },
    "role-changed": { tone: "success", text: "The role is changed. The user was told." },
    forbidden: { tone: "error", text: "Your role does not allow that: an admin can suspend users only, a super admin admins too, no one a super admin or themselves; only a super admin changes roles." },
    "last-super-admin": { tone: "error", text: "That is the last super admin: promote someone else first." },
    missing: { tone: "error", text: "That user was not found." },
  });

  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <AdminHeading title="Users" intro="Every account. Suspending one signs the user out everywhere and stops their API keys at once." />
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}

      <FilterForm action={USERS_PATH} label="Find users">
        <div className="flex grow-[2] flex-col gap-1.5">
          <label htmlFor="filter-search" className="text-sm font-semibold text-ink">
            E-mail or name
          </label>
          <input id="filter-search" name="search" type="search" defaultValue={view.search ?? ""} maxLength={100} className={inputClass} />
        </div>
        <FilterSelect
          id="filter-role"
          label="Role"
          name="role"
          defaultValue={view.role ?? ""}
          options={[{ value: "", label: "All roles" }, ...userRoleSchema.options.map((role) => ({ value: role, label: roleLabels[role] }))]}
        />
        <FilterSelect
          id="filter-suspended"
          label="Status"
          name="suspended"
          defaultValue={view.suspended ?? ""}
          options={[
            { value: "", label: "All accounts" },
            { value: "false", label: "Active" },
            { value: "true", label: "Suspended" },
          ]}
        />
      </FilterForm>

      <ResultCount total={total} page={list.page} totalPages={totalPages} estimate={list.totalIsEstimate} noun={["user", "users"]} />

      {items.length ? (
        <table className="block w-full text-left text-sm md:table md:rounded-xl md:border md:border-line md:bg-white md:shadow-sm">
          <caption className="sr-only">Users</caption>
          <thead className="hidden border-b border-line md:table-header-group">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold text-ink">
                User
              </th>
              <th scope="col" className="px-4 py-3 font-semibold text-ink">
                Role
              </th>
              <th scope="col" className="px-4 py-3 font-semibold text-ink">
                Account
              </th>
              <th scope="col" className="px-4 py-3 font-semibold text-ink">
                Actions
              </th>
            </tr>
          </thead>
          <tbody className="flex flex-col gap-4 md:table-row-group">
            {items.map((user) => (
              <UserRow key={user.id} user={user} viewer={viewer} view={view} timeZone={timeZone} />
            ))}
          </tbody>
        </table>
      ) : null}

      <CursorPager
        page={list.page}
        totalPages={totalPages}
        totalIsEstimate={list.totalIsEstimate}
        nextCursor={list.nextCursor}
        href={(cursor) => usersHref({ ...view, cursor })}
        label="User pages"
        firstLabel="Newest users"
        nextLabel="Older users"
        className=""
      />
    </div>
  );
}

function ViewFields({ view, userId }: { view: UsersView; userId: string }) {
  return (
    <>
      <input type="hidden" name="userId" value={userId} />
      {view.search ? <input type="hidden" name="view-search" value={view.search} /> : null}
      {view.role ? <input type="hidden" name="view-role" value={view.role} /> : null}
      {view.suspended ? <input type="hidden" name="view-suspended" value={view.suspended} /> : null}
      {view.cursor ? <input type="hidden" name="view-cursor" value={view.cursor} /> : null}
    </>
  );
}

const cellLabel = "mr-1 font-semibold text-ink md:hidden";

function UserRow({ user, viewer, view, timeZone }: { user: AdminUser; viewer: UserActor; view: UsersView; timeZone: string }) {
  const rowId = `user-${user.id}`;
  const name = `${user.firstName} ${user.lastName}`.trim();
  const canSuspend = maySuspend(viewer, user);
  const canChangeRole = viewer.role === "SUPER_ADMIN" && user.id !== viewer.userId;
  return (
    <tr id={rowId} data-user-email={user.email} className="flex flex-col gap-2 rounded-xl border border-line bg-white p-4 shadow-sm md:table-row md:rounded-none md:border-0 md:border-b md:p-0 md:shadow-none">
      <td className="block md:table-cell md:px-4 md:py-3 md:align-top">
        <p className="font-semibold break-all text-ink">{user.email}</p>
        <p className="text-muted">{name || "No name"}</p>
        <p className="text-muted">
          Joined <DateTime iso={user.createdAt} timeZone={timeZone} dateOnly />
        </p>
      </td>
      <td className="block md:table-cell md:px-4 md:py-3 md:align-top">
        <span className={cellLabel}>Role:</span>
        {roleLabels[user.role]}
        <span className="block text-muted">{user.subscription}</span>
      </td>
      <td className="block md:table-cell md:px-4 md:py-3 md:align-top">
        <span className={cellLabel}>Account:</span>
        {user.suspended ? (
          <span data-user-status="suspended" className="rounded-full bg-danger-50 px-2.5 py-0.5 text-xs font-semibold text-danger-700">
            Suspended
          </span>
        ) : (
          <span data-user-status="active" className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-800">
            Active
          </span>
        )}
        <span className="block text-muted">
          {user.emailVerified ? "E-mail confirmed" : "E-mail not confirmed"}
          {user.twoFactorEnabled ? " · 2FA" : ""} · {user.tagCount} {user.tagCount === 1 ? "tag" : "tags"}
        </span>
      </td>
      <td className="block md:table-cell md:px-4 md:py-3 md:align-top">
        <div className="flex flex-col gap-3">
          {canSuspend && user.suspended ? (
            <form action={setSuspensionAction} aria-label={`Lift the suspension of ${user.email}`}>
              <ViewFields view={view} userId={user.id} />
              <input type="hidden" name="suspended" value="false" />
              <SubmitButton variant="secondary" pendingLabel="Lifting…">
                Unsuspend
              </SubmitButton>
            </form>
          ) : null}
          {canSuspend && !user.suspended ? (
            <details className="group">
              <summary className="btn-secondary cursor-pointer list-none">Suspend…</summary>
              <form action={setSuspensionAction} aria-label={`Suspend ${user.email}`} className="mt-3 flex flex-col gap-2 rounded-lg border border-danger-700 bg-danger-50 p-3">
                <ViewFields view={view} userId={user.id} />
                <input type="hidden" name="suspended" value="true" />
                <p className="text-danger-700">Suspend {user.email}? They are signed out everywhere and their API keys stop working at once.</p>
                <div>
                  <SubmitButton variant="danger" pendingLabel="Suspending…">
                    Confirm suspension
                  </SubmitButton>
                </div>
              </form>
            </details>
          ) : null}
          {canChangeRole ? (
            <form action={changeRoleAction} aria-label={`Role of ${user.email}`} className="flex flex-wrap items-end gap-2">
              <ViewFields view={view} userId={user.id} />
              <div className="flex flex-col gap-1.5">
                <label htmlFor={`${rowId}-role`} className="text-sm font-semibold text-ink">
                  Role
                </label>
                <select id={`${rowId}-role`} name="role" defaultValue={user.role} className={inputClass}>
                  {userRoleSchema.options.map((role) => (
                    <option key={role} value={role}>
                      {roleLabels[role]}
                    </option>
                  ))}
                </select>
              </div>
              <SubmitButton variant="secondary" pendingLabel="Saving…">
                Change role
              </SubmitButton>
            </form>
          ) : null}
          {!canSuspend && !canChangeRole ? <span className="text-muted">{user.id === viewer.userId ? "This is you." : "No action for your role."}</span> : null}
        </div>
      </td>
    </tr>
  );
}
