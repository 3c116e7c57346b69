"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { CloseButton, Disclosure, DisclosureButton, DisclosurePanel } from "@headlessui/react";
import { dashboardLink, isCurrent, primaryLinks, signInLink } from "./site-links";

/**
 * Header navigation: a row of links from the `md` breakpoint up, a disclosure menu below it.
 * Headless UI's Disclosure gives the button aria-expanded/aria-controls and Enter/Space toggling;
 * Escape closes the menu and returns focus to the button; choosing a link closes it.
 */
export function MainNav({ signedIn = false }: { signedIn?: boolean }) {
  const pathname = usePathname() ?? "/";
  const action = signedIn ? dashboardLink : signInLink;

  return (
    <>
      <nav aria-label="Main" className="hidden md:block">
        <ul className="flex items-center gap-1">
          {primaryLinks.map((link) => {
            const current = isCurrent(pathname, link.href);
            return (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={current ? "page" : undefined}
                  className={`rounded-md px-3 py-2 text-sm font-medium hover:bg-brand-50 hover:text-brand-800 ${
                    current ? "text-brand-700 underline decoration-2 underline-offset-8" : "text-ink"
                  }`}
                >
                  {link.label}
                </Link>
              </li>
            );
          })}
          <li className="ml-2">
            <Link href={action.href} className="btn-primary min-h-10 px-4 py-2 text-sm">
              {action.label}
            </Link>
          </li>
        </ul>
      </nav>

      <Disclosure as="div" className="md:hidden">
        {({ open, close }) => (
          <div
            onKeyDown={(event) => {
              if (event.key === "Escape" && open) {
                event.preventDefault();
                close();
              }
            }}
          >
            <DisclosureButton className="inline-flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-md border border-line px-3 text-sm font-semibold text-ink hover:bg-brand-50">
              <MenuIcon open={open} />
              <span>Menu</span>
            </DisclosureButton>
            <DisclosurePanel
              as="nav"
              aria-label="Main"
              className="absolute inset-x-0 top-full z-40 border-b border-line bg-white shadow-lg"
            >
              <ul className="container-page flex flex-col gap-1 py-3">
                {primaryLinks.map((link) => {
                  const current = isCurrent(pathname, link.href);
                  return (
                    <li key={link.href}>
                      <CloseButton
                        as={Link}
                        href={link.href}
                        aria-current={current ? "page" : undefined}
                        className={`flex min-h-11 items-center rounded-md px-3 text-base font-medium hover:bg-brand-50 ${
                          current ? "bg-brand-50 text-brand-800" : "text-ink"
                        }`}
                      >
                        {link.label}
                      </CloseButton>
                    </li>
                  );
                })}
                <li className="mt-2">
                  <CloseButton as={Link} href={action.href} className="btn-primary w-full">
                    {action.label}
                  </CloseButton>
                </li>
              </ul>
            </DisclosurePanel>
          </div>
        )}
      </Disclosure>
    </>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      {open ? (
        <path d="M6 6l12 12M18 6L6 18" />
      ) : (
        <path d="M4 7h16M4 12h16M4 17h16" />
      )}
    </svg>
  );
}
