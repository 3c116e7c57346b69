import type { Metadata } from "next";
import Link from "next/link";
import { BrowserTimeZone } from "@/components/browser-time-zone";
import { AccountMenu } from "@/components/dashboard/account-menu";
import { initials } from "@/components/dashboard/initials";
import { NavLinks, type DashboardLink } from "@/components/dashboard/nav-links";
import { LogoMark } from "@/components/logo";
import { NotificationBell } from "@/components/notifications/notification-bell";
import { SERVICE_NAME } from "@/components/site-links";
import { currentUserContext } from "@/lib/http/page-context";
import { getMe } from "@/lib/services/auth";
import { unreadCount } from "@/lib/services/notifications";
import { SignOutButton } from "./sign-out-button";

export const metadata: Metadata = { robots: { index: false, follow: false } };

/** The owner's sections, in the order the tabs (phone) and the side navigation (desktop) show them. */
const dashboardLinks: readonly DashboardLink[] = [
  { href: "/dashboard", label: "Overview", exact: true },
  { href: "/dashboard/tags", label: "Tags" },
  { href: "/dashboard/messages", label: "Messages" },
  { href: "/dashboard/rewards", label: "Rewards" },
  { href: "/dashboard/alerts", label: "Lost pets nearby" },
  { href: "/dashboard/orders", label: "Orders" },
  { href: "/dashboard/emergency", label: "Emergency" },
  { href: "/dashboard/notifications", label: "Notifications" },
  { href: "/dashboard/account", label: "Account" },
];

/**
 * Everything under /dashboard needs a signed-in user, and every page and server action here checks it
 * itself with requireUserContext(its own path): a layout cannot know the path being asked for, and
 * when it redirected first, `?next=` always pointed at /dashboard. So for a signed-out visitor this
 * layout shows no dashboard chrome and lets the page send them to sign in and back.
 *
 * The dashboard's chrome replaces the site header (the root layout leaves it out for dashboard paths):
 * one compact bar (logo, bell, avatar menu with the e-mail, Account and Sign out), then the sections as
 * one scrollable row on a phone, or a side column beside the content from lg up. `no-print`: a sheet
 * printed from a dashboard page goes on paper without it (app/globals.css).
 */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const ctx = await currentUserContext();
  if (!ctx) return <div className="container-page flex-1 py-8">{children}</div>;
  // The browser's zone goes to a cookie here, so the pages below can show times in it (lib/http/viewer-time-zone.ts).
  const countedAt = new Date().toISOString();
  const [me, unread] = await Promise.all([getMe(ctx), unreadCount(ctx)]);

  return (
    <div className="flex flex-1 flex-col bg-canvas">
      <BrowserTimeZone />
      <header className="no-print border-b border-line bg-white">
        <div className="flex h-14 items-center gap-1 px-3 sm:px-5 lg:px-8">
          <Link href="/dashboard" aria-label={`${SERVICE_NAME}: overview`} className="mr-auto flex items-center gap-2 rounded-md py-1 pr-2 text-lg font-bold tracking-tight text-ink">
            <LogoMark />
            <span className="hidden min-[360px]:inline">{SERVICE_NAME}</span>
          </Link>
          <NotificationBell initialUnread={unread.count} countedAt={countedAt} />
          <AccountMenu email={me.email} initials={initials(me)}>
            <SignOutButton buttonClassName="w-full min-h-11 px-3 py-2 text-sm" />
          </AccountMenu>
        </div>
      </header>
      <div className="flex flex-1 flex-col lg:flex-row">
        <div className="no-print border-b border-line bg-white lg:w-60 lg:shrink-0 lg:border-r lg:border-b-0 lg:px-4 lg:py-8">
          <div className="lg:sticky lg:top-6">
            <NavLinks label="Dashboard" links={dashboardLinks} />
          </div>
        </div>
        <div data-dashboard-content="" className="min-w-0 flex-1 px-4 py-5 sm:px-6 sm:py-8 lg:px-10 lg:py-10">
          <div className="max-w-7xl">{children}</div>
        </div>
      </div>
    </div>
  );
}
