import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { config, proxy } from "@/proxy";

function request(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): NextRequest {
  return new NextRequest(new URL(path, "http://localhost:3000"), { method: init.method ?? "GET", headers: { host: "localhost:3000", ...init.headers }, body: init.body });
}

/** True when the proxy lets the request on to Next (NextResponse.next() or a rewrite), false when it answers. */
const passesOn = (response: Response) => response.headers.has("x-middleware-next") || response.headers.has("x-middleware-rewrite");

describe("proxy: broken percent-encoding outside /api/v1", () => {
  it("answers 404 itself for /api/photos, /api/auth (the JSON envelope) and /docs/assets (text), instead of Next's bare 500", async () => {
    for (const path of ["/api/photos/%E0%A4%A", "/api/auth/callback/%zz", "/api/photos/%C3%28"]) {
      const response = proxy(request(path));
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
    }
    const asset = proxy(request("/docs/assets/5.0.0/%E0%A4%A"));
    expect(asset.status).toBe(404);
    expect(asset.headers.get("content-type")).toMatch(/^text\/plain/);
  });

  it("passes a well-formed path on untouched (no nonce, no CSP work) and names those routes in its matcher", () => {
    for (const path of ["/api/photos/7d3f0c1e-0000-4000-8000-000000000000", "/api/auth/session", "/docs/assets/5.0.0/swagger-ui.css", "/api/photos/caf%C3%A9"]) {
      const response = proxy(request(path));
      expect(passesOn(response), path).toBe(true);
      expect(response.headers.get("content-security-policy"), path).toBeNull();
    }
    expect(config.matcher).toEqual(expect.arrayContaining(["/api/photos/:path*", "/api/auth/:path*", "/docs/assets/:path*"]));
  });
});

describe("proxy: cross-origin server actions", () => {
  const action = (headers: Record<string, string>, contentType = "text/plain;charset=UTF-8") =>
    request("/contact", { method: "POST", headers: { "content-type": contentType, ...headers }, body: "[]" });

  it("refuses a server-action POST from another origin with a 403 page, before Next answers it with a 500", async () => {
    const cases: Record<string, string>[] = [
      { "next-action": "abc123", origin: "https://evil.example" },
      { "next-action": "abc123", origin: "null" },
      { "next-action": "abc123", origin: "not a url" },
      { "next-action": "abc123", origin: "http://localhost:3000", "x-forwarded-host": "tags.example.com" },
    ];
    for (const headers of cases) {
      const response = proxy(action(headers));
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toContain("<h1>This form came from another site</h1>");
    }
    // A no-JavaScript form post (multipart, no Next-Action header) is a server action too.
    expect(proxy(action({ origin: "https://evil.example" }, "multipart/form-data; boundary=x")).status).toBe(403);
  });

  it("lets the same origin, a request without Origin (as Next does) and other POSTs through", () => {
    expect(passesOn(proxy(action({ "next-action": "abc123", origin: "http://localhost:3000" })))).toBe(true);
    expect(passesOn(proxy(action({ "next-action": "abc123", origin: "https://tags.example.com", "x-forwarded-host": "tags.example.com" })))).toBe(true);
    expect(passesOn(proxy(action({ "next-action": "abc123" })))).toBe(true);
    expect(passesOn(proxy(action({ origin: "https://evil.example" }, "application/x-www-form-urlencoded")))).toBe(true);
    expect(passesOn(proxy(request("/contact", { headers: { "next-action": "abc123", origin: "https://evil.example" } })))).toBe(true);
  });
});

describe("proxy: request ids for pages", () => {
  it("answers a page with an X-Request-Id, the caller's own when well-formed, and hands it to the page", () => {
    const fresh = proxy(request("/login"));
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(fresh.headers.get("x-middleware-request-x-request-id")).toBe(fresh.headers.get("x-request-id"));
    const kept = proxy(request("/login", { headers: { "x-request-id": "lb-4f2a9c81d" } }));
    expect(kept.headers.get("x-request-id")).toBe("lb-4f2a9c81d");
    const refused = proxy(request("/login", { headers: { "x-request-id": "spaces are not allowed" } }));
    expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
