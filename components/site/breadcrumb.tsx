import Link from "next/link";

/** "Shop / Luggage tag": the section a public page belongs to, as a link, then the page itself. */
export function Breadcrumb({ parent, current }: { parent: { href: string; label: string }; current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <Link href={parent.href} className="font-semibold text-brand-700 underline hover:text-brand-800">
        {parent.label}
      </Link>
      <span aria-hidden="true" className="text-muted">
        {" "}
        /{" "}
      </span>
      <span aria-current="page" className="text-muted">
        {current}
      </span>
    </nav>
  );
}
