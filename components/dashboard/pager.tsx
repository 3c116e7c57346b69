import Link from "next/link";

/** The page number a list's query string asks for (`?page=3`): 1 for anything missing, malformed or absurd. */
export function pageParam(value: string | string[] | undefined): number {
  const number = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(number) && number >= 1 && number <= 100_000 ? number : 1;
}

/**
 * "Previous · Page n of m · Next" under a paged list. Renders nothing for a single page. `href` makes the
 * link of a page number (keeping the list's filters); the labels say which way the list runs.
 */
export function Pager({
  page,
  totalPages,
  href,
  previousLabel = "Previous page",
  nextLabel = "Next page",
  label = "Pages",
  className = "mt-6",
}: {
  page: number;
  totalPages: number;
  href: (page: number) => string;
  previousLabel?: string;
  nextLabel?: string;
  label?: string;
  className?: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label={label} className={`flex flex-wrap items-center justify-between gap-3 text-sm ${className}`}>
      {page > 1 ? (
        <Link href={href(page - 1)} className="btn-secondary" rel="prev">
          {previousLabel}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-muted">
        Page {Math.min(page, totalPages)} of {totalPages}
      </span>
      {page < totalPages ? (
        <Link href={href(page + 1)} className="btn-secondary" rel="next">
          {nextLabel}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
