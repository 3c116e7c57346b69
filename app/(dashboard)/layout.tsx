import type { Metadata } from "next";
import { NavLinks, type DashboardLink } from "@/components/dashboard/nav-links";
import { currentUserContext } from "@/lib/http/page-context";
import { getMe } from "@/lib/services/auth";
import { unreadCount } from "@/lib/services/notifications";
import { NotificationBell } from "@/components/notifications/notification-bell";
import { SignOutButton } from "./sign-out-button";

export const metadata: Metadata = { robots: { index: false, follow: false } };

/** The owner's sections; later issues add Tags, Messages and the rest here. */
const dashboardLinks: readonly DashboardLink[] = [
  { href: "/dashboard", label: "Overview", exact: true },
  { href: "/dashboard/tags", label: "Tags" },
  { href: "/dashboard/messages", label: "Messages" },
  { href: "/dashboard/rewards", label: "Rewards" },
  { href: "/dashboard/emergency", label: "Emergency" },
  { href: "/dashboard/notifications", label: "Notifications" },
  { href: "/dashboard/account", label: "Account" },
];

/**
 * Everything under /dashboard needs a signed-in user, and every page and server action here checks it
 * itself with requireUserContext(its own path): a layout cannot know the path being asked for, and
 * when it redirected first, `?next=` always pointed at /dashboard. So for a signed-out visitor this
 * layout shows no dashboard chrome and lets the page send them to sign in and back.
 */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const ctx = await currentUserContext();
  if (!ctx) return <div className="container-page flex-1 py-8">{children}</div>;
  const countedAt = new Date().toISOString();
  const [me, unread] = await Promise.all([getMe(ctx), unreadCount(ctx)]);

  return (
    <div className="flex flex-1 flex-col bg-canvas">
      <div className="border-b border-line bg-white">
        <div className="container-page flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
          <NavLinks label="Dashboard" links={dashboardLinks} />
          <div className="flex flex-wrap items-center gap-3">
            <NotificationBell initialUnread={unread.count} countedAt={countedAt} />
            <p className="min-w-0 text-sm text-muted">
              Signed in as <span className="font-semibold break-all text-ink">{me.email}</span>
            </p>
            <SignOutButton />
          </div>
        </div>
      </div>
      <div className="container-page flex-1 py-8 sm:py-10">{children}</div>
    </div>
  );
}
