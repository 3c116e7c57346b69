import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { PAGE_KIND_HEADER, PAGE_LOCALE_HEADER, negotiateLocale, pageKind } from "@/lib/i18n/locales";

/**
 * A fresh nonce and Content-Security-Policy for every HTML request. Next reads the nonce back from the
 * request's CSP header while rendering and puts it on its own scripts; our server components read
 * `x-nonce` for the few scripts they add (Swagger UI). Pages must therefore be dynamically rendered,
 * which the root layout guarantees by reading the request headers.
 *
 * Not run for /api and /webhooks (JSON gets a static policy from next.config.ts), build assets, the Swagger UI asset
 * route, or router prefetches (RSC payloads, not documents).
 */
export function proxy(request: NextRequest) {
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

  // A path whose percent-encoding is broken (`/t/%E0%A4%A`) names nothing; Next's router would fail to
  // decode it and answer a bare 500. It gets the not-found page instead (a path no page matches).
  const response = decodablePath(request.nextUrl.pathname)
    ? NextResponse.next({ request: { headers: requestHeaders } })
    : NextResponse.rewrite(new URL("/_not-found-address", request.url), { request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  if (finderPage) response.headers.append("Vary", "Accept-Language");
  return response;
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
      source: "/((?!api/|api$|webhooks/|_next/static|_next/image|favicon.ico|docs/assets/).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
