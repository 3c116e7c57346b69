import { expect, vi } from "vitest";
import { createTranslator } from "next-intl";
import en from "@/messages/en.json";

/** The request a server action under test sees: the client's address and the session cookie, both changeable. */
export interface TestRequest {
  ip: string;
  cookie: string;
}

/**
 * Server actions run inside Next's request scope, which a test does not have. This gives them `headers()`
 * and `cookies()` (from `request`, which the test changes between calls), no-op cache invalidation (no
 * cache here) and the English translations. The wrappers, next-auth, the rate limiter, the services and
 * the database stay the real ones.
 *
 * Call it at the top of the test file, before importing any application module, and import those with
 * `await import(...)` afterwards: the mocks apply to modules loaded after this call, and the module graph
 * is reset so that every module of this file's worker sees them.
 */
export function mockNextRequestScope(ip: string): TestRequest {
  const request: TestRequest = { ip, cookie: "" };
  vi.doMock("next/headers", () => ({
    headers: async () => new Headers({ "x-tag-service-peer": request.ip, "accept-language": "en", host: "localhost:3000", ...(request.cookie ? { cookie: request.cookie } : {}) }),
    cookies: async () => {
      const [name, value] = request.cookie.split(/=(.*)/s);
      const jar = request.cookie ? [{ name: name!, value: value! }] : [];
      return { get: (wanted: string) => jar.find((cookie) => cookie.name === wanted), getAll: () => jar, has: (wanted: string) => jar.some((cookie) => cookie.name === wanted), set: () => {}, delete: () => {} };
    },
  }));
  vi.doMock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {}, updateTag: () => {}, refresh: () => {} }));
  vi.doMock("next-intl/server", () => ({
    getTranslations: async (namespace: string) => createTranslator({ locale: "en", messages: en, namespace: namespace as never }),
    getLocale: async () => "en",
  }));
  vi.resetModules();
  return request;
}

/** A form post's body. */
export function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.set(name, value);
  return data;
}

/** The path a server action redirected to (Next's redirect is a thrown digest); fails the test on anything else. */
export async function redirectOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  const digest = (error as { digest?: string } | undefined)?.digest ?? "";
  expect(digest.startsWith("NEXT_REDIRECT"), `expected a redirect, got ${JSON.stringify(error)}`).toBe(true);
  return digest.split(";")[2]!;
}
