"use client";

import { usePathname } from "next/navigation";
import { pageKind, type PageKind } from "@/lib/i18n/locales";

/**
 * Renders `children` (the site header or footer) only on the kinds of page that show it. The root layout
 * is not rendered again on a client-side navigation, so the choice follows the current path here: a link
 * from the dashboard to the home page brings the site header back, and one into the dashboard hides it.
 */
export function ShownOn({ kinds, children }: { kinds: readonly PageKind[]; children: React.ReactNode }) {
  const kind = pageKind(usePathname() ?? "/");
  return kinds.includes(kind) ? children : null;
}
