import { expect } from "vitest";
import { json } from "./http";

export type PageMeta = { total: number; page: number; totalPages: number; totalIsEstimate?: boolean; nextCursor?: string | null };
export type ListPage<T = Record<string, unknown>> = { success: true; data: T[]; meta: PageMeta };
/** One list request: `search` is the query string without `?` (e.g. `limit=2&cursor=…`). */
export type ListCall = (search: string) => Promise<Response>;

export async function listPage<T = Record<string, unknown>>(list: ListCall, search: string): Promise<ListPage<T>> {
  const response = await list(search);
  expect(response.status, await response.clone().text()).toBe(200);
  return json<ListPage<T>>(response);
}

/** Every item's id, page by page (`page=1,2,…`), and the metas seen. */
export async function walkByPages(list: ListCall, limit: number, extra = "", key = "id"): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const body = await listPage(list, `page=${page}&limit=${limit}${extra}`);
    ids.push(...body.data.map((item) => String(item[key])));
    if (page >= body.meta.totalPages) return ids;
  }
}

/** Every item's id, following `meta.nextCursor` from the first page; `between` runs after each page. */
export async function walkByCursor(list: ListCall, limit: number, extra = "", between?: (pageIndex: number) => Promise<void>, key = "id"): Promise<{ ids: string[]; pages: ListPage[] }> {
  const ids: string[] = [];
  const pages: ListPage[] = [];
  let cursor: string | null | undefined;
  for (let index = 0; index < 1000; index += 1) {
    const body = await listPage(list, `limit=${limit}${extra}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    pages.push(body);
    ids.push(...body.data.map((item) => String(item[key])));
    expect(body.meta.nextCursor === null || typeof body.meta.nextCursor === "string").toBe(true);
    cursor = body.meta.nextCursor;
    if (!cursor) return { ids, pages };
    await between?.(index);
  }
  throw new Error("The cursor walk did not end.");
}

/** The error a list answers for `search`: 400 VALIDATION_ERROR naming `cursor`. */
export async function expectCursorRefused(list: ListCall, search: string): Promise<string> {
  const response = await list(search);
  const body = await json<{ success: false; error: { code: string; message: string; details?: { fieldErrors: Record<string, string[]> } } }>(response);
  expect(response.status, JSON.stringify(body)).toBe(400);
  expect(body.error.code).toBe("VALIDATION_ERROR");
  expect(body.error.details?.fieldErrors.cursor?.length).toBeGreaterThan(0);
  return body.error.message;
}

/** A cursor whose signed body says another position (the signature left as it was). */
export function tampered(cursor: string): string {
  const [body, signature] = cursor.split(".") as [string, string];
  const values = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as unknown[];
  values[1] = Number(values[1]) + 1;
  return `${Buffer.from(JSON.stringify(values)).toString("base64url")}.${signature}`;
}

/**
 * The checks every keyset list passes: the cursor walk finds the same items as the page walk (no duplicate,
 * none missing); a tampered, a malformed, a made-up and a hostile (NUL, lone surrogate, over-long) cursor
 * are 400; cursor with page 2 is 400.
 */
export async function expectKeysetList(list: ListCall, expectedCount: number, extra = "", key = "id"): Promise<string[]> {
  const byPages = await walkByPages(list, 2, extra, key);
  const { ids: byCursor, pages } = await walkByCursor(list, 2, extra, undefined, key);
  expect(byPages.length).toBe(expectedCount);
  expect(byCursor).toEqual(byPages);
  expect(new Set(byCursor).size).toBe(byCursor.length);
  expect(pages.map((page) => page.meta.page)).toEqual(pages.map((_, index) => index + 1));
  for (const page of pages) expect(page.meta.total).toBe(expectedCount);
  expect(pages.at(-1)!.meta.nextCursor).toBeNull();
  if (pages.length > 1) {
    const cursor = pages[0]!.meta.nextCursor!;
    await expectCursorRefused(list, `limit=2${extra}&cursor=${encodeURIComponent(tampered(cursor))}`);
    await expectCursorRefused(list, `limit=2${extra}&cursor=not-a-cursor`);
    await expectCursorRefused(list, `limit=2${extra}&cursor=${Buffer.from("[1,0,1]").toString("base64url")}.AAAAAAAAAAAAAAAAAAAAAA`);
    await expectCursorRefused(list, `page=2&limit=2${extra}&cursor=${encodeURIComponent(cursor)}`);
    // Hostile input: a NUL byte, a lone surrogate's bytes, an over-long value.
    await expectCursorRefused(list, `limit=2${extra}&cursor=${encodeURIComponent(cursor)}%00`);
    await expectCursorRefused(list, `limit=2${extra}&cursor=%ED%A0%80${encodeURIComponent(cursor)}`);
    await expectCursorRefused(list, `limit=2${extra}&cursor=${"A".repeat(5_000)}`);
  }
  return byCursor;
}
