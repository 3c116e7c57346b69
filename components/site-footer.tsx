import Link from "next/link";
import { Logo } from "./logo";
import { NewsletterSignup } from "./newsletter/newsletter-signup";
import { ShownOn } from "./shown-on";
import { SERVICE_NAME } from "./site-links";

const footerGroups = [
  {
    title: "Product",
    links: [
      { href: "/shop", label: "Shop tags" },
      { href: "/#how-it-works", label: "How it works" },
      { href: "/found", label: "Found a tag? Type its code" },
    ],
  },
  // The dashboard (only ever seen signed in) offers the owner's own pages, not a sign-up or sign-in.
  {
    title: "Account",
    kinds: ["site"],
    links: [
      { href: "/register", label: "Create an account" },
      { href: "/login", label: "Sign in" },
    ],
  },
  {
    title: "Account",
    kinds: ["dashboard"],
    links: [
      { href: "/dashboard/tags", label: "Your tags" },
      { href: "/dashboard/account", label: "Your profile" },
    ],
  },
  {
    title: "Company",
    links: [
      { href: "/blog", label: "Blog" },
      { href: "/careers", label: "Careers" },
      { href: "/contact", label: "Contact us" },
      { href: "/privacy", label: "Privacy" },
    ],
  },
  {
    title: "Developers",
    links: [
      { href: "/docs", label: "API documentation" },
      { href: "/api/v1/openapi.json", label: "OpenAPI document" },
    ],
  },
] as const;

const footerLinkClass = "text-sm text-muted underline-offset-4 hover:text-brand-800 hover:underline";

export function SiteFooter() {
  return (
    <footer className="mt-auto border-t border-line bg-canvas">
      <div className="container-page grid gap-8 py-10 sm:grid-cols-2 lg:grid-cols-5">
        <div className="max-w-xs">
          <Logo />
          <p className="mt-3 text-sm text-muted">
            QR and NFC tags that bring lost things home, while your contact details stay private.
          </p>
        </div>
        {footerGroups.map((group) =>
          "kinds" in group ? (
            <ShownOn key={`${group.title}-${group.kinds.join()}`} kinds={group.kinds}>
              <FooterGroup group={group} />
            </ShownOn>
          ) : (
            <FooterGroup key={group.title} group={group} />
          ),
        )}
      </div>
      <div className="container-page pb-10">
        <NewsletterSignup />
      </div>
      <div className="border-t border-line">
        <p className="container-page py-4 text-sm text-muted">
          © {new Date().getFullYear()} {SERVICE_NAME}
        </p>
      </div>
    </footer>
  );
}

function FooterGroup({ group }: { group: (typeof footerGroups)[number] }) {
  return (
    <nav aria-label={group.title}>
      <h2 className="text-sm font-semibold text-ink">{group.title}</h2>
      <ul className="mt-3 space-y-2">
        {group.links.map((link) => (
          <li key={link.href}>
            {link.href.startsWith("/api/") ? (
              // A JSON document, not a page: a plain link, no client-side navigation.
              <a href={link.href} className={footerLinkClass}>
                {link.label}
              </a>
            ) : (
              <Link href={link.href} prefetch={false} className={footerLinkClass}>
                {link.label}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
