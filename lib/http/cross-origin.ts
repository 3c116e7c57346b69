/**
 * The same-origin rule for forms that post without a token: server actions (checked in proxy.ts) and the
 * finder page's contact form (lib/finder-page/route.ts, which the proxy does not see). Free of imports:
 * the proxy loads it too.
 */

/**
 * Whether a POST's Origin names another host. The test is Next's own for server actions, so the two never
 * disagree: the host is X-Forwarded-Host's first value, else Host; a request without Origin passes, as Next
 * lets it (no browser sends a cross-site POST without one); an unparseable Origin is foreign.
 */
export function postFromForeignOrigin(headers: Headers): boolean {
  const origin = headers.get("origin");
  if (origin === null) return false;
  let originHost: string;
  try {
    originHost = origin === "null" ? "null" : new URL(origin).host;
  } catch {
    return true;
  }
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const host = forwarded || headers.get("host");
  return !host || originHost !== host;
}

/** A plain page (no script, so no nonce) saying why: a forged form, or a page served under another name. */
export function crossOriginRefusal(): Response {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    "<title>Form refused</title></head><body style=\"font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#111;line-height:1.5\">" +
    "<main><h1>This form came from another site</h1><p>For your safety, forms are only accepted from this site's own pages. Nothing was changed.</p>" +
    '<p><a href="/" style="color:#1d4ed8">Go to the home page</a> and try again from there.</p></main></body></html>';
  return new Response(html, {
    status: 403,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": "default-src 'none'; style-src-attr 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'" },
  });
}
