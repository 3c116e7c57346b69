import { NavLinks, type DashboardLink } from "@/components/dashboard/nav-links";

const accountLinks: readonly DashboardLink[] = [
  { href: "/dashboard/account", label: "Profile", exact: true },
  { href: "/dashboard/account/password", label: "Password" },
  { href: "/dashboard/account/two-factor", label: "Two-factor" },
  { href: "/dashboard/account/sessions", label: "Sessions" },
  { href: "/dashboard/account/api-keys", label: "API keys" },
  { href: "/dashboard/account/safety", label: "Blocking and reports" },
  { href: "/dashboard/account/data", label: "Your data" },
];

/** The account area's own sections; each page has its own heading and signed-in check. */
export default function AccountLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Account settings</p>
        <NavLinks label="Account settings" links={accountLinks} variant="pills" />
      </div>
      <div className="max-w-3xl">{children}</div>
    </div>
  );
}
