import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { crossOriginRefusal, postFromForeignOrigin } from "@/lib/http/cross-origin";
import { requestIdFrom } from "@/lib/http/request-id";
import { PAGE_KIND_HEADER, PAGE_LOCALE_HEADER, negotiateLocale, pageKind } from "@/lib/i18n/locales";
import { annotateActiveSpan } from "@/lib/telemetry/tracing";

/**
 * A fresh nonce and Content-Security-Policy for every HTML request. Next reads the nonce back from the
 * request's CSP header while rendering and puts it on its own scripts; our server components read
 * `x-nonce` for the few scripts they add (Swagger UI). Pages must therefore be dynamically rendered,
 * which the root layout guarantees by reading the request headers.
 *
 * Not run for /api and /webhooks (JSON gets a static policy from next.config.ts), build assets, the Swagger UI asset
 * route, or router prefetches (RSC payloads, not documents), except that the route handlers with dynamic
 * segments outside /api/v1 (photos, next-auth, Swagger UI assets) come here for the percent-encoding check
 * alone (/api/v1 and the bench's dynamic floor get it from lib/http/incoming-requests.ts, with the API's headers and rate limit).
 */
export function proxy(request: NextRequest) {
  const pathname = request.nextUrl.pathname;
  if (DECODE_CHECK_ONLY.some((prefix) => pathname.startsWith(prefix))) {
    if (decodablePath(pathname)) return NextResponse.next();
    // Next's router would fail to decode the dynamic segment and answer a bare 500; this names nothing.
    return pathname.startsWith("/api/")
      ? NextResponse.json({ success: false, error: { code: "NOT_FOUND", message: "Not found." } }, { status: 404, headers: { "Cache-Control": "no-store" } })
      : new NextResponse("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  if (crossOriginServerAction(request)) return crossOriginRefusal();
  // The finder's tag page is a route handler with its own hash-based policy, request id and origin check
  // (lib/finder-page), which the matcher below leaves out unless its address has a percent sign: only a
  // broken percent-encoding still needs the not-found page below, and a second, nonce-based policy would
  // block the page's inline script.
  if (FINDER_TAG_PAGE.test(pathname) && decodablePath(pathname)) return NextResponse.next();

  const nonce = createNonce();
  const policy = contentSecurityPolicy(nonce);

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  // The finder's pages speak the finder's language; the rest of the site is English. Always overwritten,
  // so a client cannot choose it by sending the header itself.
  const kind = pageKind(request.nextUrl.pathname);
  const finderPage = kind === "finder";
  requestHeaders.set(PAGE_LOCALE_HEADER, finderPage ? negotiateLocale(request.headers.get("accept-language")) : "en");
  requestHeaders.set(PAGE_KIND_HEADER, kind);
  // A page's request id, as the API's (lib/http/request-id.ts): answered in X-Request-Id, readable by the
  // page from the request's headers, and on the request's trace when tracing is on (docs/operations.md#tracing).
  const requestId = requestIdFrom(request.headers.get("x-request-id"));
  requestHeaders.set("x-request-id", requestId);
  annotateActiveSpan({ "http.request.id": requestId });

  // A path whose percent-encoding is broken (`/t/%E0%A4%A`) names nothing; Next's router would fail to
  // decode it and answer a bare 500. It gets the not-found page instead (a path no page matches).
  const response = decodablePath(request.nextUrl.pathname)
    ? NextResponse.next({ request: { headers: requestHeaders } })
    : NextResponse.rewrite(new URL("/_not-found-address", request.url), { request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  response.headers.set("X-Request-Id", requestId);
  if (finderPage) response.headers.append("Vary", "Accept-Language");
  return response;
}

/** The finder's page of a tag, /t/:encryptedId (not its /emergency page beneath). */
const FINDER_TAG_PAGE = /^\/t\/[^/]+\/?$/;

/** Route handlers whose dynamic segments Next decodes and which the page matcher below leaves out. */
const DECODE_CHECK_ONLY = ["/api/photos/", "/api/auth/", "/docs/assets/"];

/**
 * A POST Next would take as a server action (the Next-Action header of a fetch action, or a multipart form
 * of a no-JavaScript one) whose Origin is not this host. Next refuses it too, but by throwing "Invalid
 * Server Actions request", which answers 500 (an unparseable Origin throws earlier, also 500). No
 * `serverActions.allowedOrigins` is configured; one added there must be accepted here as well.
 */
function crossOriginServerAction(request: NextRequest): boolean {
  if (request.method !== "POST") return false;
  const multipart = request.headers.get("content-type")?.toLowerCase().startsWith("multipart/form-data") ?? false;
  if (!request.headers.has("next-action") && !multipart) return false;
  return postFromForeignOrigin(request.headers);
}

function decodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

const development = env.NODE_ENV === "development";
const servedOverHttps = new URL(env.APP_URL).protocol === "https:";

function contentSecurityPolicy(nonce: string): string {
  const directives = [
    "default-src 'self'",
    // 'strict-dynamic': scripts the nonce'd scripts load (Next's chunks) are trusted; 'self' is only the
    // fallback for browsers without CSP 3. React needs eval in development only, for its error overlays.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    // <style> and stylesheets need the nonce or our origin. Next's dev overlay injects unnonced styles.
    `style-src 'self' ${development ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    // style="" attributes (server-rendered by React, and set by Swagger UI's markdown rendering) cannot
    // run code and can only fetch from img-src/font-src below, so they are allowed.
    "style-src-attr 'unsafe-inline'",
    // https: pictures an admin links from elsewhere (a blog cover, an image in a post's Markdown, a product
    // picture): the Markdown renderer and the schemas accept https and our own paths, never http.
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    "connect-src 'self'",
    // Service workers (web push) are not covered by 'strict-dynamic'; name our origin explicitly.
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(servedOverHttps ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

export const config = {
  matcher: [
    {
      // Not the finder's tag page (t/<one segment without "%">): see FINDER_TAG_PAGE above.
      source: "/((?!api/|api$|webhooks/|_next/static|_next/image|favicon.ico|docs/assets/|finder-page\\.|t/[^/%]+/?$).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
    "/api/photos/:path*",
    "/api/auth/:path*",
    "/docs/assets/:path*",
  ],
};
