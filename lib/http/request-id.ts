/**
 * The id a request is known by in logs, traces and the `X-Request-Id` answer: the caller's own when it is
 * well-formed (8–128 of `A-Za-z0-9._-`, so a load balancer's id carries through), else a new UUID. Used by
 * route() for the API and by proxy.ts for pages. Free of imports: the proxy loads it too.
 */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,128}$/;

export function requestIdFrom(incoming: string | null): string {
  return incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
}
