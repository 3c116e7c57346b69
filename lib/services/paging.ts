import { createHmac, timingSafeEqual } from "node:crypto";
import { asc, desc, sql, type AnyColumn, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { derivedKey } from "@/lib/auth/tokens";
import { ValidationError } from "./errors";

/**
 * Keyset pages for every list (docs/decisions/0046-cursor-pagination.md). A list names its order (its
 * columns, newest first or oldest first, ending in a unique key) once; `keysetPage()` turns a request's
 * `page`/`limit` or `cursor` into the WHERE, ORDER BY, LIMIT and OFFSET of the list's own query, and
 * `finish()` turns the rows it read into the page with `nextCursor`. A cursor is opaque: base64url of the
 * last row's order values and its position, signed (HMAC under a key derived from AUTH_SECRET) together
 * with the list's name and scope (its owner and filters), so an altered cursor, or one from another list or
 * another user's list, is a 400 rather than a page of something else.
 */

/** Above this many rows a page's `total` is the planner's estimate (`totalIsEstimate: true`), not a count. */
export const pagingLimits = { exactTotalUpTo: 10_000 };

export interface PageRequest {
  page: number;
  limit: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  total: number;
  totalIsEstimate: boolean;
  page: number;
  limit: number;
  nextCursor: string | null;
}

/** How a value of one order column travels in a cursor and back into SQL. */
export type KeyType = "timestamp" | "text" | "uuid" | "integer";

export interface OrderKey {
  column: AnyColumn | SQL;
  direction: "asc" | "desc";
  type: KeyType;
}

export interface ListOrder<R> {
  /** Bound into the cursor: a cursor of one list is refused by every other. */
  name: string;
  /** The list's order; the last key is unique (the row's id). Order columns must not be null. */
  keys: OrderKey[];
  /** The order values of a row the list read, in the order of `keys`. */
  valuesOf: (row: R) => unknown[];
}

export interface KeysetPlan<R> {
  /** AND it into the list's WHERE (undefined on a page by number). */
  where: SQL | undefined;
  orderBy: SQL[];
  /** One more than the page, to know whether another follows. */
  limit: number;
  offset: number;
  /** The page's items from the rows read, with the cursor of the next page. */
  finish<T, Row extends R>(rows: Row[], toItem: (row: Row, index: number) => T, total: Total): Page<T>;
}

export interface Total {
  total: number;
  isEstimate: boolean;
}

const CURSOR_PURPOSE = "list-cursor";
const MAC_BYTES = 16;
const VERSION = 1;

function mac(list: string, scope: readonly unknown[], body: string): Buffer {
  return createHmac("sha256", derivedKey(CURSOR_PURPOSE))
    .update(`${list}\u0000${JSON.stringify(scope)}\u0000${body}`)
    .digest()
    .subarray(0, MAC_BYTES);
}

function encodeValue(value: unknown, type: KeyType): string | number {
  if (type === "timestamp") {
    const date = value instanceof Date ? value : new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new Error("A keyset timestamp is not a date.");
    return date.toISOString();
  }
  if (type === "integer") return Number(value);
  return String(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function valueIsValid(value: unknown, type: KeyType): boolean {
  if (type === "timestamp") return typeof value === "string" && !Number.isNaN(Date.parse(value));
  if (type === "integer") return typeof value === "number" && Number.isSafeInteger(value);
  if (type === "uuid") return typeof value === "string" && UUID.test(value);
  return typeof value === "string" && value.length <= 1000;
}

export function encodeCursor(list: string, scope: readonly unknown[], keys: OrderKey[], values: unknown[], position: number): string {
  const body = Buffer.from(JSON.stringify([VERSION, position, ...values.map((value, index) => encodeValue(value, keys[index]!.type))])).toString("base64url");
  return `${body}.${mac(list, scope, body).toString("base64url")}`;
}

const INVALID = "This cursor is not valid for this list: use the nextCursor this list answered, or start again without one.";

/** The order values and position a cursor carries; a cursor altered, made up or from another list is a 400. */
export function decodeCursor(list: string, scope: readonly unknown[], keys: OrderKey[], cursor: string): { values: unknown[]; position: number } {
  const invalid = () => ValidationError.field("cursor", INVALID);
  const [body, signature, extra] = cursor.split(".");
  if (!body || !signature || extra !== undefined || !/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]+$/.test(signature)) throw invalid();
  const given = Buffer.from(signature, "base64url");
  const expected = mac(list, scope, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(decoded) || decoded[0] !== VERSION || decoded.length !== keys.length + 2) throw invalid();
  const position = decoded[1];
  const values = decoded.slice(2);
  if (typeof position !== "number" || !Number.isSafeInteger(position) || position < 0) throw invalid();
  if (!values.every((value, index) => valueIsValid(value, keys[index]!.type))) throw invalid();
  return { values, position };
}

function param(value: unknown, type: KeyType): SQL {
  if (type === "timestamp") return sql`${value}::timestamptz`;
  if (type === "integer") return sql`${value}::int`;
  if (type === "uuid") return sql`${value}::uuid`;
  return sql`${value}::text`;
}

/**
 * Rows after the cursor's row in the list's order. One direction for every key is a row comparison
 * `(a, b, id) < ($1, $2, $3)`, which an index on (…, a, b, id) answers as a range; mixed directions spell it
 * out, led by a bound on the first key so that index still starts at the cursor.
 */
export function afterKeys(keys: OrderKey[], values: unknown[]): SQL {
  const direction = keys[0]!.direction;
  if (keys.every((key) => key.direction === direction)) {
    const columns = sql.join(
      keys.map((key) => sql`${key.column}`),
      sql`, `,
    );
    const params = sql.join(
      keys.map((key, index) => param(values[index], key.type)),
      sql`, `,
    );
    return direction === "desc" ? sql`(${columns}) < (${params})` : sql`(${columns}) > (${params})`;
  }
  const strictly = (index: number) => {
    const key = keys[index]!;
    const value = param(values[index], key.type);
    return key.direction === "desc" ? sql`${key.column} < ${value}` : sql`${key.column} > ${value}`;
  };
  const equal = (index: number) => sql`${keys[index]!.column} = ${param(values[index], keys[index]!.type)}`;
  const branches = keys.map((_, index) => sql.join([...keys.slice(0, index).map((__, before) => equal(before)), strictly(index)], sql` and `));
  const first = keys[0]!;
  const bound = first.direction === "desc" ? sql`${first.column} <= ${param(values[0], first.type)}` : sql`${first.column} >= ${param(values[0], first.type)}`;
  return sql`(${bound} and (${sql.join(
    branches.map((branch) => sql`(${branch})`),
    sql` or `,
  )}))`;
}

/**
 * The plan of one page of a list: by `cursor` (keyset: any depth costs the same) or by `page` (OFFSET, as
 * the specification has it). A cursor with a page other than 1 is a 400: the two would name different rows.
 * `scope` is what the list is of (the owner, a tag, the filters): a cursor is valid only for the same scope.
 */
export function keysetPage<R>(order: ListOrder<R>, scope: readonly unknown[], request: PageRequest): KeysetPlan<R> {
  const { keys } = order;
  const orderBy = keys.map((key) => (key.direction === "desc" ? desc(key.column) : asc(key.column)));
  let where: SQL | undefined;
  let position = (request.page - 1) * request.limit;
  let offset = position;
  if (request.cursor !== undefined) {
    if (request.page !== 1) throw ValidationError.field("cursor", "Send either cursor or page, not both.");
    const decoded = decodeCursor(order.name, scope, keys, request.cursor);
    where = afterKeys(keys, decoded.values);
    position = decoded.position;
    offset = 0;
  }
  return {
    where,
    orderBy,
    limit: request.limit + 1,
    offset,
    finish(rows, toItem, total) {
      const items = rows.slice(0, request.limit);
      const last = items.at(-1);
      const more = rows.length > request.limit && last !== undefined;
      const nextPosition = position + items.length;
      return {
        items: items.map(toItem),
        total: total.isEstimate ? Math.max(total.total, nextPosition + (more ? 1 : 0)) : total.total,
        totalIsEstimate: total.isEstimate,
        page: Math.floor(position / request.limit) + 1,
        limit: request.limit,
        nextCursor: more ? encodeCursor(order.name, scope, keys, order.valuesOf(last), nextPosition) : null,
      };
    },
  };
}

type Row = Record<string, unknown>;

/** postgres.js answers an array of rows, PGlite `{ rows }`. */
function rowsOf(result: unknown): Row[] {
  if (Array.isArray(result)) return result as Row[];
  return ((result as { rows?: Row[] }).rows ?? []) as Row[];
}

/** The planner's estimate of how many rows a query returns (EXPLAIN, nothing is read). */
export async function plannedRows(db: Executor, query: SQLWrapper): Promise<number> {
  const [row] = rowsOf(await db.execute(sql`explain (format json) ${query}`));
  const raw = row ? Object.values(row)[0] : undefined;
  const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan?: { "Plan Rows"?: number } }[] | undefined;
  return Math.round(Number(plan?.[0]?.Plan?.["Plan Rows"] ?? 0));
}

/**
 * A list's total, counting at most `pagingLimits.exactTotalUpTo` + 1 rows of `rows` (the list's query
 * without order or limit; select as little as possible): exact up to the limit, above it an estimate, from
 * `estimate` when the data keeps one (a counter) or else the planner's, never below what was counted.
 */
export async function boundedTotal(db: Executor, rows: SQLWrapper, estimate?: () => Promise<number | null>): Promise<Total> {
  const cap = pagingLimits.exactTotalUpTo;
  const [counted] = rowsOf(await db.execute(sql`select count(*)::int as n from (${rows} limit ${cap + 1}) as bounded`));
  const exact = Number(counted?.n ?? 0);
  if (exact <= cap) return { total: exact, isEstimate: false };
  const estimated = (await estimate?.()) ?? (await plannedRows(db, rows));
  return { total: Math.max(estimated, exact), isEstimate: true };
}
