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

export function pageOffset({ page, limit }: PaginationQuery): number {
  return (page - 1) * limit;
}
