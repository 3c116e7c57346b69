import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

// The finder's pages are translated (lib/i18n); the language comes from the request, not the URL.
const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

// Evaluated by `next build` (production) and `next dev` (development); the result is stored in the build.
const isProduction = process.env.NODE_ENV === "production";

/**
 * Plain headers on every response, pages and API alike. The HTML Content-Security-Policy carries a
 * per-request nonce and is set by proxy.ts; API responses get the cheap static policy below instead.
 */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  // Geolocation stays available to our own pages: a finder may choose to share where an item was found.
  {
    key: "Permissions-Policy",
    value: "camera=(), microphone=(), geolocation=(self), payment=(), usb=(), serial=(), browsing-topics=()",
  },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  ...(isProduction ? [{ key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" }] : []),
];

/** JSON never needs to load anything or be framed. */
const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Photo uploads through server actions: the API's 5 MB image limit plus form overhead.
  experimental: { serverActions: { bodySizeLimit: "6mb" } },
  // These load files relative to their own module (PGlite's wasm and data) or hold native/optional
  // requires (pdfkit reads its font metrics and colour profile next to its own module); bundling them
  // breaks that, so Node resolves them from node_modules at run time.
  // The OpenTelemetry SDK (lib/telemetry/sdk.ts, loaded only when an OTLP endpoint is set) stays out of
  // the bundles too: one copy of the API for Next's own spans and ours, and its optional requires unresolved.
  serverExternalPackages: ["@electric-sql/pglite", "pg-boss", "postgres", "ioredis", "pdfkit", "@opentelemetry/api", "@opentelemetry/sdk-node", "@opentelemetry/sdk-trace", "@opentelemetry/sdk-metrics", "@opentelemetry/core", "@opentelemetry/exporter-trace-otlp-http", "@opentelemetry/exporter-trace-otlp-proto", "@opentelemetry/exporter-metrics-otlp-http", "@opentelemetry/exporter-metrics-otlp-proto"],
  // The label PDFs read their fonts from node_modules at run time (lib/services/tags/label-render.ts), a
  // path the tracer cannot see: name them for the routes that print.
  outputFileTracingIncludes: { "/api/v1/tags/**": ["./node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf", "./node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf", "./node_modules/dejavu-fonts-ttf/ttf/DejaVuSansMono-Bold.ttf"] },
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      // Every API path but the invoice, an HTML document with its own policy: a second policy would be
      // enforced as well, and this one's default-src 'none' blocks the invoice's stylesheet.
      { source: "/api/:path((?!v1/orders/[^/]+/invoice/?$).*)", headers: [{ key: "Content-Security-Policy", value: apiContentSecurityPolicy }] },
      { source: "/webhooks/:path*", headers: [{ key: "Content-Security-Policy", value: apiContentSecurityPolicy }] },
      // `next start` gzips only a response whose Content-Type header is a plain string: a route handler's
      // own arrives as a one-item list (Next appends it) and is never compressed. Set here, it is a string
      // and the handler's is not added, so the OpenAPI document goes out gzipped, a seventh of its size
      // (docs/api.md).
      { source: "/api/v1/openapi.json", headers: [{ key: "Content-Type", value: "application/json" }] },
      // The finder's tag page is a route handler too (lib/finder-page): the same, so its HTML goes out gzipped.
      { source: "/t/:encryptedId", headers: [{ key: "Content-Type", value: "text/html; charset=utf-8" }] },
      // Its stylesheet's name changes with its content (npm run finder:css): cached for ever.
      { source: "/:file(finder-page\\.[0-9a-f]{12}\\.css)", headers: [{ key: "Cache-Control", value: "public, max-age=31536000, immutable" }] },
    ];
  },
};

export default withNextIntl(nextConfig);
