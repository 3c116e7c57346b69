"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

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

const variants = {
  // Below lg one row that scrolls sideways instead of wrapping; from lg a column (the side navigation).
  // The row's padding leaves room for the focus outline, which the scroller would otherwise clip.
  tabs: {
    list: "relative flex gap-1 overflow-x-auto overscroll-x-contain px-3 py-1.5 whitespace-nowrap sm:px-5 [scrollbar-width:thin] lg:flex-col lg:overflow-visible lg:px-0 lg:whitespace-normal",
    link: "inline-flex min-h-10 w-full items-center rounded-md px-3 text-sm font-semibold",
    current: "bg-brand-700 text-white",
    other: "text-ink hover:bg-brand-50 hover:text-brand-800",
  },
  pills: {
    list: "flex flex-wrap gap-1",
    link: "inline-flex min-h-10 items-center rounded-full border px-3 text-sm font-medium",
    current: "border-brand-700 bg-brand-50 text-brand-900",
    other: "border-line text-ink hover:border-brand-700 hover:text-brand-800",
  },
} as const;

/**
 * Section links; the current one has aria-current="page". `tabs`: the dashboard's sections, one
 * scrollable row on a phone (the current one scrolled into view) and a column from lg up. `pills`: a
 * row that wraps.
 */
export function NavLinks({ label, links, variant = "tabs" }: { label: string; links: readonly DashboardLink[]; variant?: keyof typeof variants }) {
  const pathname = usePathname() ?? "";
  const list = useRef<HTMLUListElement>(null);
  const style = variants[variant];

  useEffect(() => {
    const row = list.current;
    const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !current || row.scrollWidth <= row.clientWidth) return;
    // Scroll the row only (scrollIntoView could also move the page): centre the current tab. The row is
    // positioned, so offsetLeft is measured from it.
    const left = current.offsetLeft - (row.clientWidth - current.offsetWidth) / 2;
    row.scrollLeft = Math.max(0, left);
  }, [pathname]);

  return (
    <nav aria-label={label}>
      <ul ref={list} className={style.list}>
        {links.map((link) => {
          const current = isCurrent(pathname, link);
          return (
            <li key={link.href} className="shrink-0">
              <Link href={link.href} aria-current={current ? "page" : undefined} className={`${style.link} ${current ? style.current : style.other}`}>
                {link.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
