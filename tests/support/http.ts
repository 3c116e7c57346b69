import { PEER_ADDRESS_HEADER } from "@/lib/http/client-ip";
import type { RouteHandler } from "@/lib/http/route";

let ipCounter = 0;

/** A distinct client address per test, so rate-limit counts never leak between tests. */
export function nextTestIp(): string {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

export interface TestRequestInit {
  method?: string;
  body?: unknown;
  rawBody?: BodyInit;
  headers?: Record<string, string>;
  ip?: string;
}

/** A real Request as Next would hand it to a route handler (the peer address stamped as the server does). */
export function apiRequest(path: string, init: TestRequestInit = {}): Request {
  const headers = new Headers(init.headers);
  headers.set(PEER_ADDRESS_HEADER, init.ip ?? "203.0.113.10");
  let body: BodyInit | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return new Request(new URL(path, "http://localhost:3000"), { method: init.method ?? "GET", headers, body, duplex: "half" } as RequestInit);
}

/** Calls a route handler the way Next does, with its dynamic params. */
export function call(handler: RouteHandler, request: Request, params: Record<string, string | string[]> = {}): Promise<Response> {
  return handler(request, { params: Promise.resolve(params) });
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/**
 * Rate limits use fixed windows aligned to the clock. A test that must fill a window before it ends
 * waits, when needed, for the next window to begin, so a boundary can't fall in the middle of it.
 */
export async function awayFromWindowEdge(windowMs: number, neededMs: number): Promise<void> {
  const remaining = windowMs - (Date.now() % windowMs);
  if (remaining < neededMs) await new Promise((resolve) => setTimeout(resolve, remaining + 50));
}
