"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export interface DashboardLink {
  href: string;
  label: string;
  /** Current only on this exact path (an overview whose sub-pages have their own links). */
  exact?: boolean;
}

function isCurrent(pathname: string, link: DashboardLink): boolean {
  if (link.exact) return pathname === link.href;
  return pathname === link.href || pathname.startsWith(`${link.href}/`);
}

/** A row of section links that wraps on narrow screens; the current one has aria-current="page". */
export function NavLinks({ label, links, variant = "tabs" }: { label: string; links: readonly DashboardLink[]; variant?: "tabs" | "pills" }) {
  const pathname = usePathname() ?? "";
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-1">
        {links.map((link) => {
          const current = isCurrent(pathname, link);
          const base =
            variant === "tabs"
              ? "inline-flex min-h-11 items-center rounded-md px-3 text-sm font-semibold"
              : "inline-flex min-h-10 items-center rounded-full border px-3 text-sm font-medium";
          const state =
            variant === "tabs"
              ? current
                ? "bg-brand-700 text-white"
                : "text-ink hover:bg-brand-50 hover:text-brand-800"
              : current
                ? "border-brand-700 bg-brand-50 text-brand-900"
                : "border-line text-ink hover:border-brand-700 hover:text-brand-800";
          return (
            <li key={link.href}>
              <Link href={link.href} aria-current={current ? "page" : undefined} className={`${base} ${state}`}>
                {link.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
