"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, type ReactNode } from "react";
import { SERVICE_NAME } from "@/components/site-links";

/**
 * The avatar button and its menu (the e-mail address, Account, the public site, and `children`: the
 * sign-out form). A <details>, so it opens and signs out without JavaScript; with it, Escape closes the
 * menu and returns focus to the button, and a click elsewhere or a navigation closes it.
 */
export function AccountMenu({ email, initials, children }: { email: string; initials: string; children: ReactNode }) {
  const details = useRef<HTMLDetailsElement>(null);
  const pathname = usePathname();

  useEffect(() => {
    if (details.current) details.current.open = false;
  }, [pathname]);

  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      const menu = details.current;
      if (menu?.open && event.target instanceof Node && !menu.contains(event.target)) menu.open = false;
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, []);

  return (
    <details
      ref={details}
      className="group relative"
      onKeyDown={(event) => {
        const menu = details.current;
        if (event.key !== "Escape" || !menu?.open) return;
        event.preventDefault();
        menu.open = false;
        menu.querySelector("summary")?.focus();
      }}
    >
      <summary
        aria-label={`Account menu for ${email}`}
        className="flex min-h-11 min-w-11 cursor-pointer list-none items-center justify-center rounded-full [&::-webkit-details-marker]:hidden"
      >
        <span
          aria-hidden="true"
          className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white ring-brand-200 group-open:ring-4"
        >
          {initials}
        </span>
      </summary>
      <div className="absolute top-full right-0 z-40 mt-2 flex w-72 max-w-[calc(100vw-2rem)] flex-col gap-1 rounded-xl border border-line bg-white p-2 shadow-lg">
        <p className="px-3 py-2 text-sm text-muted">
          Signed in as <span className="block font-semibold break-all text-ink">{email}</span>
        </p>
        <Link href="/dashboard/account" className={menuItemClass}>
          Account
        </Link>
        <Link href="/dashboard/organisation" className={menuItemClass}>
          Organisation
        </Link>
        <Link href="/" className={menuItemClass}>
          {SERVICE_NAME} home
        </Link>
        <div className="mt-1 border-t border-line pt-2">{children}</div>
      </div>
    </details>
  );
}

const menuItemClass = "flex min-h-11 items-center rounded-md px-3 text-sm font-semibold text-ink hover:bg-brand-50 hover:text-brand-800";
