import { env, type Env } from "@/lib/env";

/**
 * The URL a webhook's sender signed (docs/relay.md): behind TRUST_PROXY the request reaches us under an
 * internal address, so it is the public one, APP_URL's origin with the request's path and query; else
 * the request's own URL.
 */
export function publicRequestUrl(req: Request, e: Pick<Env, "APP_URL" | "TRUST_PROXY"> = env): string {
  if (!e.TRUST_PROXY) return req.url;
  const url = new URL(req.url);
  return `${new URL(e.APP_URL).origin}${url.pathname}${url.search}`;
}
