/** A page of results; route() turns it into `{ success, data, meta }`. */
export class Paginated<T> {
  constructor(
    readonly items: T[],
    readonly total: number,
    readonly page: number,
    readonly limit: number,
  ) {}

  get meta(): PageMeta {
    return { total: this.total, page: this.page, totalPages: Math.ceil(this.total / this.limit) };
  }
}

export interface PageMeta {
  total: number;
  page: number;
  totalPages: number;
}

export function paginated<T>(items: T[], page: { total: number; page: number; limit: number }): Paginated<T> {
  return new Paginated(items, page.total, page.page, page.limit);
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
