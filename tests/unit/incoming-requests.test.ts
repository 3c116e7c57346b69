import { readdirSync } from "node:fs";
import { join, sep } from "node:path";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { hasMalformedEncoding, MALFORMED_API_PATH, prepareIncomingRequests, ROUTE_PARAM_HEADER, routableUrl, STATIC_FINDER_PAGE_ROUTE, STATIC_SCAN_ROUTE, staticRouteOf } from "@/lib/http/incoming-requests";
import { encryptedIdParam } from "@/lib/services/scans";
import { config, proxy } from "@/proxy";

describe("API paths Next could not decode", () => {
  it("recognises a malformed percent-encoding in any segment", () => {
    for (const path of ["/api/v1/scan/%E0%A4%A", "/api/v1/tags/%zz", "/api/v1/x/%", "/api/v1/blog/%C3%28/more", "/api/v1/a/%ED%A0%80"]) expect(hasMalformedEncoding(path), path).toBe(true);
    for (const path of ["/api/v1/scan/abc", "/api/v1/vehicles/verify/1HGCM82633A00435%32", "/api/v1/a/%E2%82%AC", "/api/v1/a%2Fb"]) expect(hasMalformedEncoding(path), path).toBe(false);
  });

  it("sends only undecodable /api/v1 and bench-floor paths to the catch-all, whatever the query", () => {
    expect(routableUrl("/api/v1/scan/%E0%A4%A")).toBe(MALFORMED_API_PATH);
    expect(routableUrl("/api/v1/scan/%E0%A4%A?x=1")).toBe(MALFORMED_API_PATH);
    expect(routableUrl("/api/v1/scan/ok?q=%E0%A4%A")).toBe("/api/v1/scan/ok?q=%E0%A4%A");
    expect(routableUrl("/api/v1/tags?page=1")).toBe("/api/v1/tags?page=1");
    // The bench's dynamic floor is a route handler with a path parameter outside the proxy too (404, never Next's 500).
    expect(routableUrl("/api/bench-floor/path/%E0%A4%A")).toBe(MALFORMED_API_PATH);
    expect(routableUrl("/api/bench-floor/path/abc")).toBe("/api/bench-floor/path/abc");
    expect(routableUrl("/api/bench-floor")).toBe("/api/bench-floor");
    // Pages keep Next's own handling (a 404 page).
    expect(routableUrl("/t/%E0%A4%A")).toBe("/t/%E0%A4%A");
  });
});

describe("the static routes of the scan and the finder's page", () => {
  const id = "AbCdEfGh_-1234567890xyz";

  it("takes a GET or HEAD of /api/v1/scan/<id> or /t/<id>, keeping the query", () => {
    expect(staticRouteOf("GET", `/api/v1/scan/${id}`)).toEqual({ url: STATIC_SCAN_ROUTE, param: id });
    expect(staticRouteOf("HEAD", `/api/v1/scan/${id}`)).toEqual({ url: STATIC_SCAN_ROUTE, param: id });
    expect(staticRouteOf("GET", `/api/v1/scan/${id}?lang=es&x=%20`)).toEqual({ url: `${STATIC_SCAN_ROUTE}?lang=es&x=%20`, param: id });
    expect(staticRouteOf("GET", `/t/${id}`)).toEqual({ url: STATIC_FINDER_PAGE_ROUTE, param: id });
    expect(staticRouteOf("HEAD", `/t/${id}?utm_source=poster`)).toEqual({ url: `${STATIC_FINDER_PAGE_ROUTE}?utm_source=poster`, param: id });
  });

  it("leaves everything else to Next's own routing", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", undefined]) expect(staticRouteOf(method, `/api/v1/scan/${id}`), String(method)).toBeUndefined();
    for (const url of [
      `/api/v1/scan/${id}/`,
      `/api/v1/scan/${id}/emergency`,
      `/api/v1/scan//${id}`,
      `/api/v1/scan/%41${id.slice(1)}`,
      "/api/v1/scan/thread",
      "/api/v1/scan/view",
      "/api/v1/scan/",
      `/api/v1/scans/${id}`,
      `/api/v2/scan/${id}`,
      `/t/${id}/`,
      `/t/${id}/emergency`,
      "/t/view",
      `/t/%41${id.slice(1)}`,
      `/thread/${id}`,
      `/API/v1/scan/${id}`,
    ])
      expect(staticRouteOf("GET", url), url).toBeUndefined();
  });

  it("takes exactly the ids the scan's parameter accepts, so the static route never answers what the dynamic one would not", () => {
    const candidates = ["a".repeat(15), "a".repeat(16), "a".repeat(64), "a".repeat(65), "abc.def_ghijklmnopq", "abcdefghijklmnop~", "ÄbcdefghijklmnopQ", id];
    for (const candidate of candidates) {
      for (const path of [`/api/v1/scan/${candidate}`, `/t/${candidate}`]) {
        const taken = staticRouteOf("GET", path) !== undefined;
        expect(taken, path).toBe(encryptedIdParam().safeParse(candidate).success);
      }
    }
  });

  it("is applied by the request hook, which removes a stamp a client sent", async () => {
    prepareIncomingRequests();
    const server = http.createServer((req, res) => res.end(JSON.stringify({ url: req.url, param: req.headers[ROUTE_PARAM_HEADER] ?? null })));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const seen = async (path: string, init?: RequestInit) => (await fetch(base + path, init)).json();
      expect(await seen(`/api/v1/scan/${id}?q=1`)).toEqual({ url: `${STATIC_SCAN_ROUTE}?q=1`, param: id });
      expect(await seen(`/api/v1/scan/${id}`, { headers: { [ROUTE_PARAM_HEADER]: "SomeoneElsesTag12345" } })).toEqual({ url: STATIC_SCAN_ROUTE, param: id });
      expect(await seen(STATIC_SCAN_ROUTE, { headers: { [ROUTE_PARAM_HEADER]: id } })).toEqual({ url: STATIC_SCAN_ROUTE, param: null });
      expect(await seen(`/api/v1/scan/${id}`, { method: "POST" })).toEqual({ url: `/api/v1/scan/${id}`, param: null });
      expect(await seen(`/t/${id}`)).toEqual({ url: STATIC_FINDER_PAGE_ROUTE, param: id });
      expect(await seen(`/t/${id}`, { method: "POST", body: "message=hi" })).toEqual({ url: `/t/${id}`, param: null });
      expect(await seen("/api/v1/scan/%E0%A4%A")).toEqual({ url: MALFORMED_API_PATH, param: null });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("every route handler with a path parameter is guarded against a broken percent-encoding", () => {
  // Next decodes a dynamic segment before any of our code runs and answers a bare 500 when it cannot: each
  // such route needs either routableUrl (before Next) or the proxy (its matcher, then a 404 or the not-found page).
  const BROKEN = "%E0%A4%A";

  function routeHandlersWithParameters(dir = "app"): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return routeHandlersWithParameters(path);
      return entry.name === "route.ts" && path.includes("[") ? [path] : [];
    });
  }

  /** The route's address with every dynamic segment broken, route groups left out. */
  function brokenAddress(file: string): string {
    const segments = file.split(sep).slice(1, -1).filter((segment) => !/^\(.*\)$/.test(segment));
    return "/" + segments.map((segment) => (segment.startsWith("[") ? BROKEN : segment)).join("/");
  }

  function proxyRuns(path: string): boolean {
    return config.matcher.some((matcher) => {
      if (typeof matcher === "string") return path.startsWith(matcher.replace("/:path*", "/"));
      return new RegExp(`^${matcher.source}$`).test(path);
    });
  }

  it("finds the routes (API, photos, next-auth, Swagger UI assets, the finder's page, the bench's dynamic floor)", () => {
    const addresses = routeHandlersWithParameters().map(brokenAddress);
    expect(addresses).toEqual(expect.arrayContaining([`/api/v1/scan/${BROKEN}`, `/api/photos/${BROKEN}`, `/t/${BROKEN}`, `/api/bench-floor/path/${BROKEN}`]));
  });

  it("answers each with a 404, never Next's 500", () => {
    for (const file of routeHandlersWithParameters()) {
      const address = brokenAddress(file);
      if (routableUrl(address) === MALFORMED_API_PATH) continue;
      expect(proxyRuns(address), `${file}: neither routableUrl nor the proxy's matcher covers ${address}`).toBe(true);
      const response = proxy(new NextRequest(new URL(address, "http://localhost:3000"), { headers: { host: "localhost:3000" } }));
      const notFoundPage = response.headers.get("x-middleware-rewrite")?.includes("/_not-found-address") ?? false;
      expect(response.status === 404 || notFoundPage, `${file}: the proxy passes ${address} on to Next`).toBe(true);
    }
  });
});
