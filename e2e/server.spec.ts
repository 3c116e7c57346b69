import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";
import { lostTag } from "./support/finder";

test.describe("the running server", () => {
  test("answers /api/health and unknown API paths with the envelope and rate-limit headers", async ({ request }) => {
    const health = await request.get("/api/health");
    expect(health.status()).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", db: "ok" });

    const unknown = await request.post("/api/v1/definitely/not/here", { data: { any: "thing" } });
    expect(unknown.status()).toBe(404);
    expect(await unknown.json()).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
    const headers = unknown.headers();
    for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "x-request-id"]) expect(headers[name], name).toBeTruthy();
    expect(headers["x-powered-by"]).toBeUndefined();
    expect(headers["access-control-allow-origin"]).toBe("*");
  });

  test("answers a malformed percent-encoding in any API path with the 404 envelope, not Next's bare 500", async ({ request }) => {
    for (const path of ["/api/v1/scan/%E0%A4%A", "/api/v1/vehicles/verify/%E0%A4%A", "/api/v1/blog/%E0%A4%A", "/api/v1/tags/%E0%A4%A", "/api/v1/tags/%zz/scans", "/api/v1/no/such/%C3%28"]) {
      for (const method of ["GET", "POST", "DELETE"] as const) {
        const response = await request.fetch(path, { method, headers: { "content-type": "application/json" }, data: method === "GET" ? undefined : "{}" });
        expect(response.status(), `${method} ${path}`).toBe(404);
        expect(await response.json()).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
        expect(response.headers()["x-ratelimit-limit"], `${method} ${path}`).toBeTruthy();
      }
    }
    // A well-formed encoding still reaches its route.
    expect((await request.get("/api/v1/vehicles/verify/1HGCM82633A00435%32")).status()).toBe(200);
  });

  test("answers broken percent-encoding under /api/photos, /api/auth, /docs/assets and the bench's dynamic floor with 404, not Next's bare 500", async ({ request }) => {
    for (const path of ["/api/photos/%E0%A4%A", "/api/auth/callback/%E0%A4%A", "/api/auth/%zz", "/docs/assets/x/%E0%A4%A", "/api/bench-floor/path/%E0%A4%A"]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      if (path.startsWith("/api/")) expect(await response.json()).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
    }
    expect((await request.get("/api/auth/session")).status()).toBe(200);
  });

  test("answers a scan and the finder's page by their static routes as by the dynamic ones, and ignores a route stamp a client sends", async ({ request, playwright }) => {
    const tag = await lostTag(playwright);
    const other = await lostTag(playwright, { lost: false });
    const phone = { "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1" };
    const viewOf = async (path: string, headers: Record<string, string> = {}) => {
      const response = await request.get(path, { headers: { ...phone, ...headers } });
      return { status: response.status(), body: await response.json() };
    };
    // The request hook takes this one to the static route; the escaped first character keeps the next on Next's own way.
    const fixed = await viewOf(`/api/v1/scan/${tag.encryptedId}`);
    const escaped = `%${tag.encryptedId.charCodeAt(0).toString(16).toUpperCase()}${tag.encryptedId.slice(1)}`;
    const dynamic = await viewOf(`/api/v1/scan/${escaped}`);
    expect(fixed.status).toBe(200);
    expect(fixed).toEqual(dynamic);
    expect(fixed.body.data).toMatchObject({ encryptedId: tag.encryptedId, status: "LOST", itemName: "Rex's collar" });
    // A stamp sent by a client names nothing: the address decides which tag is scanned.
    expect((await viewOf(`/api/v1/scan/${tag.encryptedId}`, { "x-tag-service-route-param": other.encryptedId })).body.data.encryptedId).toBe(tag.encryptedId);
    const stampedByClient = await viewOf("/api/v1/scan/view", { "x-tag-service-route-param": other.encryptedId });
    expect(stampedByClient).toEqual({ status: 404, body: { success: false, error: { code: "NOT_FOUND", message: expect.any(String) } } });
    // The finder's page likewise: by its static route and through Next's, the same page; a stamp on /t/view is no tag.
    const pageOf = async (path: string, headers: Record<string, string> = {}) => {
      const response = await request.get(path, { headers: { ...phone, "Accept-Language": "en", ...headers } });
      return { status: response.status(), type: response.headers()["content-type"], body: await response.text() };
    };
    const page = await pageOf(`/t/${tag.encryptedId}`);
    expect(page).toMatchObject({ status: 200, type: "text/html; charset=utf-8" });
    expect(page.body).toContain("Rex&#39;s collar");
    expect(await pageOf(`/t/${escaped}`)).toEqual(page);
    expect((await pageOf("/t/view", { "x-tag-service-route-param": other.encryptedId })).status).toBe(404);
    // Every scan and page view of the tag was counted, the other tag's none.
    const scans = await request.get(`/api/v1/tags/${tag.tagId}`, { headers: { Authorization: `Bearer ${tag.token}` } });
    expect((await scans.json()).data.scanCount).toBe(5);
    const untouched = await request.get(`/api/v1/tags/${other.tagId}`, { headers: { Authorization: `Bearer ${other.token}` } });
    expect((await untouched.json()).data.scanCount).toBe(0);
  });

  test("refuses a cross-origin server-action POST with a 403 page, not Next's 500", async ({ request }) => {
    const posts: Record<string, string>[] = [
      { "next-action": "0000000000000000000000000000000000000000", origin: "https://evil.example", "content-type": "text/plain;charset=UTF-8" },
      { origin: "https://evil.example", "content-type": "multipart/form-data; boundary=x" },
    ];
    for (const headers of posts) {
      const response = await request.post("/contact", { headers, data: headers["content-type"]!.startsWith("multipart") ? "--x--\r\n" : "[]" });
      expect(response.status(), JSON.stringify(headers)).toBe(403);
      expect(await response.text()).toContain("This form came from another site");
    }
  });

  test("refuses a cross-site form post of JSON to login with 415 and sets no cookie", async ({ request }) => {
    const response = await request.post("/api/v1/auth/login", {
      headers: { "content-type": "text/plain", origin: "https://evil.example" },
      data: JSON.stringify({ email: "someone@example.com", password: "Whatever123" }),
    });
    expect(response.status()).toBe(415);
    expect((await response.json()).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(response.headers()["set-cookie"]).toBeUndefined();
  });

  test("counts a client by its socket address, whatever X-Forwarded-For it forges", async ({ request }) => {
    const remaining = async (forged: string) => {
      const response = await request.get("/api/v1/rate-probe", { headers: { "X-Forwarded-For": forged, "x-tag-service-peer": forged } });
      return Number(response.headers()["x-ratelimit-remaining"]);
    };
    const first = await remaining("203.0.113.1");
    const second = await remaining("203.0.113.2");
    const third = await remaining("198.51.100.7");
    expect(second).toBe(first - 1);
    expect(third).toBe(first - 2);
  });
});

test("a production start without a required secret stops at once, naming it", async () => {
  test.setTimeout(60_000);
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", DATA_DIR: `/tmp/e2e-missing-secret-${Date.now()}` };
  delete env.AUTH_SECRET;
  delete env.DATABASE_URL;
  const child = spawn("npx", ["next", "start", "-p", "0"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(null);
    }, 45_000);
    child.on("exit", (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  expect(code, output).toBe(1);
  expect(output).toContain("AUTH_SECRET is required in production");
});
