import type { Metadata } from "next";
import { BrowserTimeZone } from "@/components/browser-time-zone";
import { NavLinks, type DashboardLink } from "@/components/dashboard/nav-links";
import { currentUserContext } from "@/lib/http/page-context";

export const metadata: Metadata = { robots: { index: false, follow: false } };

const adminLinks: readonly DashboardLink[] = [
  { href: "/admin", label: "Overview", exact: true },
  { href: "/admin/users", label: "Users" },
  { href: "/admin/orders", label: "Orders" },
  { href: "/admin/products", label: "Products" },
  { href: "/admin/payment-events", label: "Payment events" },
  { href: "/admin/tags", label: "Mint tags" },
  { href: "/admin/reports", label: "Reports" },
  { href: "/admin/organisations", label: "Organisations" },
  { href: "/admin/blog", label: "Blog" },
  { href: "/admin/careers", label: "Careers" },
  { href: "/admin/campaigns", label: "Campaigns" },
];
/** The audit log is for super admins only, so only they see its link. */
const superAdminLinks: readonly DashboardLink[] = [{ href: "/admin/audit-log", label: "Audit log" }];

/**
 * The admin area's frame; each page checks the admin role itself (requireAdminContext). The navigation is
 * drawn for admins only: anyone else gets the 404 page, which should not list the admin's pages.
 */
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const ctx = await currentUserContext();
  const isAdmin = ctx?.actor.kind === "user" && (ctx.actor.role === "ADMIN" || ctx.actor.role === "SUPER_ADMIN");
  return (
    <div className="flex flex-1 flex-col bg-canvas">
      <BrowserTimeZone />
      <div className="container-page flex-1 py-8 sm:py-10">
        {isAdmin ? (
          <div className="mb-6">
            <NavLinks label="Admin" links={ctx?.actor.kind === "user" && ctx.actor.role === "SUPER_ADMIN" ? [...adminLinks, ...superAdminLinks] : adminLinks} variant="pills" />
          </div>
        ) : null}
        {children}
      </div>
    </div>
  );
}
