import http from "node:http";
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
 * Prepares each incoming request before Next sees it: stamps its TCP peer address in
 * PEER_ADDRESS_HEADER (overwriting any value a client sent, so clientIp() can tell the real socket
 * address from a forged X-Forwarded-For), and sends an undecodable API path to MALFORMED_API_PATH.
 * Called once from instrumentation, before the server handles requests.
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
      if (req.url) req.url = routableUrl(req.url);
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof proto.emit;
}
