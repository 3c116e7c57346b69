import http from "node:http";
import { ENCRYPTED_ID_PATTERN } from "@/lib/validation/encrypted-id";
import { PEER_ADDRESS_HEADER } from "./client-ip";

type PatchedServer = { __incomingRequestsPatched?: boolean };

/**
 * Where an /api/v1 request with a malformed percent-encoding in its path is sent. Next's router decodes
 * dynamic path params before any of our code runs and answers a bare 500 when it cannot (a rewrite in
 * proxy.ts does not help: the params are still taken from the original URL). Only the catch-all route
 * answers this path, so the API kernel gives such a request the 404 envelope, headers and rate limit.
 */
export const MALFORMED_API_PATH = "/api/v1/_/malformed-path";

/** True when a path segment is not valid percent-encoded UTF-8 (what decodeURIComponent refuses). */
export function hasMalformedEncoding(pathname: string): boolean {
  if (!pathname.includes("%")) return false;
  for (const segment of pathname.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return true;
    }
  }
  return false;
}

/**
 * Where Next decodes a dynamic segment before any code of ours runs and proxy.ts does not look: the API, and
 * the bench's dynamic floor (`/api/bench-floor/path/:id`), which stays out of the proxy so it measures Next alone.
 */
const DECODED_BY_NEXT_ONLY = ["/api/v1/", "/api/bench-floor/"];

/** The URL Next should route: such a path that cannot be decoded becomes MALFORMED_API_PATH (query dropped). */
export function routableUrl(url: string): string {
  if (!DECODED_BY_NEXT_ONLY.some((prefix) => url.startsWith(prefix))) return url;
  const pathEnd = url.search(/[?#]/);
  const pathname = pathEnd === -1 ? url : url.slice(0, pathEnd);
  return hasMalformedEncoding(pathname) ? MALFORMED_API_PATH : url;
}

/**
 * The header in which the request hook hands a hot path's parameter to its static route (any value a
 * client sent is removed first, so only the hook can set it).
 */
export const ROUTE_PARAM_HEADER = "x-tag-service-route-param";

/** The scan's static route: the scan's own handlers, its parameter from ROUTE_PARAM_HEADER (app/api/v1/scan/view). */
export const STATIC_SCAN_ROUTE = "/api/v1/scan/view";
/** The finder's page's static route: the page's own handlers, likewise (app/(finder)/t/view). */
export const STATIC_FINDER_PAGE_ROUTE = "/t/view";

/** The hot dynamic addresses, each with one parameter, and the static route standing in for it. */
const STATIC_ROUTES: readonly { pattern: RegExp; to: string }[] = [
  { pattern: /^\/api\/v1\/scan\/([^/?#]+)(\?.*)?$/, to: STATIC_SCAN_ROUTE },
  { pattern: /^\/t\/([^/?#]+)(\?.*)?$/, to: STATIC_FINDER_PAGE_ROUTE },
];

/**
 * The scan and the finder's page, the requests every printed tag makes, as static routes: Next matches a
 * dynamic route by trying its dynamic routes' patterns in turn (the scan's is the 54th of 92, the page's the
 * 90th) and then builds its parameters, which costs about a tenth of what an empty handler costs, on every
 * scan (docs/decisions/0054-static-scan-route.md). A GET or HEAD of `/api/v1/scan/<id>` or `/t/<id>` whose id
 * has an encrypted id's form (no escapes to decode) goes to its static route with the id beside it; anything
 * else takes Next's way to the same handlers.
 */
export function staticRouteOf(method: string | undefined, url: string): { url: string; param: string } | undefined {
  if (method !== "GET" && method !== "HEAD") return undefined;
  for (const { pattern, to } of STATIC_ROUTES) {
    const match = pattern.exec(url);
    if (match) return ENCRYPTED_ID_PATTERN.test(match[1]!) ? { url: to + (match[2] ?? ""), param: match[1]! } : undefined;
  }
  return undefined;
}

/** The last segment of every stand-in's address: shorter than any encrypted id, so it names no tag. */
const STAND_IN_SEGMENT = "view";

/**
 * A static stand-in's handler: the dynamic route's own, given the parameter the request hook stamped, or,
 * for a request for the stand-in's own address (no stamp), "view", as the dynamic route would have it.
 */
export function withStampedParam<C extends { params: Promise<Record<string, unknown>> }>(name: string, handler: (req: Request, context: C) => Promise<Response>): (req: Request) => Promise<Response> {
  return (req) => handler(req, { params: Promise.resolve({ [name]: req.headers.get(ROUTE_PARAM_HEADER) ?? STAND_IN_SEGMENT }) } as C);
}

/**
 * Prepares each incoming request before Next sees it: stamps its TCP peer address in
 * PEER_ADDRESS_HEADER (overwriting any value a client sent, so clientIp() can tell the real socket
 * address from a forged X-Forwarded-For), sends an undecodable API path to MALFORMED_API_PATH, and a scan
 * or a finder's page to its static route (staticRouteOf). Called once from instrumentation, before the server handles requests.
 */
export function prepareIncomingRequests(): void {
  const proto = http.Server.prototype as http.Server & PatchedServer;
  if (proto.__incomingRequestsPatched) return;
  proto.__incomingRequestsPatched = true;
  const emit = proto.emit;
  proto.emit = function patchedEmit(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      req.headers[PEER_ADDRESS_HEADER] = req.socket?.remoteAddress ?? "";
      delete req.headers[ROUTE_PARAM_HEADER];
      if (req.url) {
        req.url = routableUrl(req.url);
        const staticRoute = staticRouteOf(req.method, req.url);
        if (staticRoute) {
          req.headers[ROUTE_PARAM_HEADER] = staticRoute.param;
          req.url = staticRoute.url;
        }
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof proto.emit;
}
