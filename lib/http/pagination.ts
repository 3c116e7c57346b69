import { z } from "zod";

/** `page` ≥ 1 and 1 ≤ `limit` ≤ 100; out-of-range values are a VALIDATION_ERROR, never clamped. */
export const paginationQuery = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .default(1)
    .meta({ description: "1-based page number", example: 1 }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(10)
    .meta({ description: "Items per page (1–100)", example: 10 }),
});

export type PaginationQuery = z.infer<typeof paginationQuery>;

/**
 * `page`/`limit` and an opaque `cursor` (a previous page's `meta.nextCursor`): the query of every list that
 * pages by keyset (docs/decisions/0046-cursor-pagination.md). The list checks the cursor itself (it is
 * bound to the list and its filters); a cursor with `page` other than 1 is a 400.
 */
export const cursorPaginationQuery = paginationQuery.extend({
  cursor: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .meta({ description: "The previous page's `meta.nextCursor` (same list and filters; not with `page`)" }),
});

export type CursorPaginationQuery = z.infer<typeof cursorPaginationQuery>;

export function pageOffset({ page, limit }: PaginationQuery): number {
  return (page - 1) * limit;
}
