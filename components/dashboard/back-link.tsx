import Link from "next/link";
import type { ReactNode } from "react";

/** The link up to a page's parent, above its heading: "← Your tags". */
export function BackLink({ href, children, className }: { href: string; children: ReactNode; className?: string }) {
  return (
    <p className={className}>
      <Link href={href} className="text-sm font-semibold text-brand-700 underline hover:text-brand-800">
        ← {children}
      </Link>
    </p>
  );
}
