import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <div className="container-page flex flex-1 flex-col items-start justify-center py-16">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-ink sm:text-4xl">Page not found</h1>
      <p className="mt-4 max-w-xl text-muted">
        There is nothing at this address. If you scanned a tag, check that the whole link was copied; otherwise start
        again from the home page.
      </p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <Link href="/" className="btn-primary">
          Go to the home page
        </Link>
        <Link href="/found" className="btn-secondary">
          Found a tag? Type its code
        </Link>
      </div>
    </div>
  );
}
