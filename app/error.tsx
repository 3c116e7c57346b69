"use client";

import Link from "next/link";
import { useEffect, useRef } from "react";

function digestOf(error: unknown): string | undefined {
  if (error instanceof Error && "digest" in error && typeof error.digest === "string") return error.digest;
  return undefined;
}

/**
 * Shown inside the root layout when a page throws. Server errors arrive with a generic message and a
 * digest that matches the server log line, so the digest is the only detail shown.
 */
export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const digest = digestOf(error);

  useEffect(() => {
    console.error(error);
    headingRef.current?.focus();
  }, [error]);

  return (
    <div className="container-page flex flex-1 flex-col items-start justify-center py-16">
      <p className="text-sm font-semibold uppercase tracking-wide text-danger-700">Error</p>
      <h1 ref={headingRef} tabIndex={-1} className="mt-2 text-3xl font-bold tracking-tight text-ink focus:outline-none sm:text-4xl">
        Something went wrong
      </h1>
      <p className="mt-4 max-w-xl text-muted">
        This page could not be shown. It may be a temporary problem: try again, or go back to the home page.
      </p>
      {digest ? (
        <p className="mt-2 text-sm text-muted">
          Reference: <code className="rounded bg-canvas px-1.5 py-0.5 font-mono">{digest}</code>
        </p>
      ) : null}
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <button type="button" onClick={() => retry()} className="btn-primary">
          Try again
        </button>
        <Link href="/" className="btn-secondary">
          Go to the home page
        </Link>
      </div>
    </div>
  );
}
