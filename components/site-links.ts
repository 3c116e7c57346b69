/** The service's name as pages show it; e-mails use the same words (emails/brand.ts). */
export const SERVICE_NAME = "Tag Service";

export type NavLink = { href: string; label: string };

/**
 * Primary navigation, in the order the header shows it. "Sign in" is shown apart, as the action.
 * Only pages that exist are linked (e2e/link-check.spec.ts follows every one): the blog, careers
 * and contact pages join this list when they are built.
 */
export const primaryLinks: readonly NavLink[] = [
  { href: "/", label: "Home" },
  { href: "/shop", label: "Shop" },
  { href: "/found", label: "Found a tag?" },
  { href: "/blog", label: "Blog" },
  { href: "/docs", label: "API docs" },
];

export const signInLink: NavLink = { href: "/login", label: "Sign in" };

/** Takes the place of "Sign in" for a signed-in visitor. */
export const dashboardLink: NavLink = { href: "/dashboard", label: "Dashboard" };

/** True when `href` is the current section: exact for Home, prefix for the others. */
export function isCurrent(pathname: string, href: string): boolean {
  if (href === "/") return pathname === "/";
  return pathname === href || pathname.startsWith(`${href}/`);
}
