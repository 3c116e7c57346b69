import Link from "next/link";
import { ValidationError } from "@/lib/services/errors";

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

/** The cursor a list's query string carries (`?cursor=…`, a list's `nextCursor`), if it looks like one. */
export function cursorParam(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text && text.length <= 1024 && /^[A-Za-z0-9_.-]+$/.test(text) ? text : undefined;
}

/**
 * A page of a list by cursor; a cursor the list refuses (altered, or of another list or filter) shows the
 * first page instead of an error: the address is the user's to edit.
 */
export async function pageOrFirst<T>(load: (cursor: string | undefined) => Promise<T>, cursor: string | undefined): Promise<T> {
  if (!cursor) return load(undefined);
  try {
    return await load(cursor);
  } catch (error) {
    if (error instanceof ValidationError) return load(undefined);
    throw error;
  }
}

/**
 * "Newest · Page n of m · Older" under a list paged by cursor (docs/decisions/0046-cursor-pagination.md):
 * plain links, so it works without JavaScript. "Older" carries the next page's cursor; the first link goes
 * back to the start (the browser's Back button to the page before). Renders nothing for a single page.
 */
export function CursorPager({
  page,
  totalPages,
  totalIsEstimate = false,
  nextCursor,
  href,
  firstLabel = "Newest",
  nextLabel = "Older",
  label = "Pages",
  className = "mt-6",
}: {
  page: number;
  totalPages: number;
  totalIsEstimate?: boolean;
  nextCursor: string | null;
  href: (cursor?: string) => string;
  firstLabel?: string;
  nextLabel?: string;
  label?: string;
  className?: string;
}) {
  if (page <= 1 && !nextCursor) return null;
  return (
    <nav aria-label={label} className={`flex flex-wrap items-center justify-between gap-3 text-sm ${className}`}>
      {page > 1 ? (
        <Link href={href()} className="btn-secondary" rel="first">
          {firstLabel}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-muted">
        Page {page} of {totalIsEstimate ? "about " : ""}
        {Math.max(page, totalPages).toLocaleString("en")}
      </span>
      {nextCursor ? (
        <Link href={href(nextCursor)} className="btn-secondary" rel="next">
          {nextLabel}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
