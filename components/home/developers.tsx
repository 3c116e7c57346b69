import Link from "next/link";
import { CodeIcon } from "@/components/icons";

/** The REST API, for owners who manage tags from their own software. */
export function Developers() {
  return (
    <section aria-labelledby="developers-heading" className="container-page py-14 sm:py-20">
      <div className="flex flex-col gap-6 rounded-2xl border border-line p-6 sm:p-10 md:flex-row md:items-center md:justify-between">
        <div className="flex gap-4">
          <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
            <CodeIcon className="h-7 w-7" />
          </span>
          <div>
            <h2 id="developers-heading" className="text-2xl font-bold tracking-tight text-ink">
              Built for developers too
            </h2>
            <p className="mt-2 max-w-2xl text-muted">
              Manage tags, profiles, messages and orders from your own software with the REST API and an API key. The
              full reference is an OpenAPI document you can try in the browser.
            </p>
          </div>
        </div>
        <Link href="/docs" className="btn-secondary shrink-0">
          Read the API docs
        </Link>
      </div>
    </section>
  );
}
