"use client";

import { useEffect } from "react";
import "./globals.css";

/**
 * Replaces the root layout when the layout itself fails, so it brings its own document and styles
 * and depends on nothing else of the app (not even the header, which might be what failed).
 */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  const digest = error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : undefined;

  return (
    <html lang="en">
      <body className="flex min-h-dvh flex-col bg-white text-ink">
        <title>Something went wrong · Tag Service</title>
        <main className="container-page flex flex-1 flex-col items-start justify-center py-16">
          <p className="text-sm font-semibold uppercase tracking-wide text-danger-700">Tag Service</p>
          <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Something went wrong</h1>
          <p className="mt-4 max-w-xl text-muted">
            The service could not show this page. Please try again in a moment.
          </p>
          {digest ? <p className="mt-2 text-sm text-muted">Reference: {digest}</p> : null}
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <button type="button" onClick={() => retry()} className="btn-primary">
              Try again
            </button>
            {/* A full page load on purpose: the client router may be what is broken. */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a href="/" className="btn-secondary">
              Go to the home page
            </a>
          </div>
        </main>
      </body>
    </html>
  );
}
