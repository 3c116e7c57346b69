import type { Page } from "@/lib/services/paging";

/** A page of results; route() turns it into `{ success, data, meta }`. */
export class Paginated<T> {
  constructor(
    readonly items: T[],
    readonly total: number,
    readonly page: number,
    readonly limit: number,
    /** Lists paged by keyset (docs/decisions/0046-cursor-pagination.md) also answer these. */
    readonly keyset?: { nextCursor: string | null; totalIsEstimate: boolean },
  ) {}

  get meta(): PageMeta {
    const meta: PageMeta = { total: this.total, page: this.page, totalPages: Math.ceil(this.total / this.limit) };
    return this.keyset ? { ...meta, totalIsEstimate: this.keyset.totalIsEstimate, nextCursor: this.keyset.nextCursor } : meta;
  }
}

export interface PageMeta {
  total: number;
  page: number;
  totalPages: number;
  totalIsEstimate?: boolean;
  nextCursor?: string | null;
}

/** A list service's page (with its cursor), or items with their count. */
export function paginated<T>(page: Page<T>): Paginated<T>;
export function paginated<T>(items: T[], page: { total: number; page: number; limit: number }): Paginated<T>;
export function paginated<T>(items: T[] | Page<T>, page?: { total: number; page: number; limit: number }): Paginated<T> {
  if (!Array.isArray(items)) return new Paginated(items.items, items.total, items.page, items.limit, { nextCursor: items.nextCursor, totalIsEstimate: items.totalIsEstimate });
  return new Paginated(items, page!.total, page!.page, page!.limit);
}

/** Lets a handler choose the status (201 for creations) or add headers (Set-Cookie) while route() still wraps the data. */
export class WithStatus<T> {
  constructor(
    readonly status: number,
    readonly data: T,
    readonly headers: [string, string][] = [],
  ) {}
}

export function created<T>(data: T): WithStatus<T> {
  return new WithStatus(201, data);
}

export function respond<T>(data: T, options: { status?: number; headers?: [string, string][] } = {}): WithStatus<T> {
  return new WithStatus(options.status ?? 200, data, options.headers ?? []);
}
