import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineEndpoint, paginated, paginationQuery, route, preflight, uuidParam, created } from "@/lib/http";
import { ConflictError, ForbiddenError, InvalidTransitionError, UnprocessableError } from "@/lib/services/errors";
import { GET as unknownGet, POST as unknownPost, DELETE as unknownDelete } from "@/app/api/v1/[...path]/route";
import { apiRequest, call, json, nextTestIp, awayFromWindowEdge } from "../support/http";

const itemBody = z.object({
  name: z.string().min(1).max(100),
  quantity: z.number().int().min(1).max(100),
  note: z.string().max(500).optional(),
});

const echo = route(
  defineEndpoint({
    method: "POST",
    path: "/api/v1/test/items/{id}",
    summary: "test",
    tags: ["Test"],
    auth: "public",
    params: z.object({ id: uuidParam() }),
    body: itemBody,
  }),
  async ({ params, body }) => created({ id: params.id, ...body }),
);

const list = route(
  defineEndpoint({ method: "GET", path: "/api/v1/test/list", summary: "test", tags: ["Test"], auth: "public", query: paginationQuery }),
  async ({ query }) => {
    const all = Array.from({ length: 23 }, (_, i) => ({ n: i + 1 }));
    const start = (query.page - 1) * query.limit;
    return paginated(all.slice(start, start + query.limit), { total: all.length, page: query.page, limit: query.limit });
  },
);

const failing = route(
  defineEndpoint({ method: "GET", path: "/api/v1/test/boom", summary: "test", tags: ["Test"], auth: "public" }),
  async () => {
    throw new Error("secret database password leaked in message");
  },
);

const domainFailures = {
  conflict: new ConflictError("Already there."),
  forbidden: new ForbiddenError(),
  transition: new InvalidTransitionError(),
  unprocessable: new UnprocessableError("Tier limit reached.", { tier: "FREE", limit: 5 }),
};
const domainFailing = route(
  defineEndpoint({ method: "GET", path: "/api/v1/test/fail/{kind}", summary: "test", tags: ["Test"], auth: "public", params: z.object({ kind: z.enum(["conflict", "forbidden", "transition", "unprocessable"]) }) }),
  async ({ params }) => {
    throw domainFailures[params.kind];
  },
);

const privateThing = route(
  defineEndpoint({ method: "GET", path: "/api/v1/test/private", summary: "test", tags: ["Test"], auth: "user" }),
  async () => ({ secret: true }),
);
const adminThing = route(
  defineEndpoint({ method: "GET", path: "/api/v1/test/admin", summary: "test", tags: ["Test"], auth: "admin" }),
  async () => ({ secret: true }),
);
const register = route(
  defineEndpoint({ method: "POST", path: "/api/v1/test/register", summary: "test", tags: ["Test"], auth: "public", rateLimit: ["auth", "registration"] }),
  async () => ({ ok: true }),
);

const ID = "3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60";

function expectRateLimitHeaders(response: Response) {
  expect(Number(response.headers.get("X-RateLimit-Limit"))).toBeGreaterThan(0);
  expect(response.headers.get("X-RateLimit-Remaining")).toMatch(/^\d+$/);
  const reset = Number(response.headers.get("X-RateLimit-Reset"));
  // Unix seconds, in the near future.
  expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
  expect(reset).toBeLessThan(Math.floor(Date.now() / 1000) + 3700);
}

describe("API kernel: envelope and validation", () => {
  it("wraps success in the envelope with the chosen status", async () => {
    const response = await call(echo, apiRequest(`/api/v1/test/items/${ID}`, { method: "POST", body: { name: "Collar", quantity: 2, extra: "ignored" } }), { id: ID });
    expect(response.status).toBe(201);
    expect(await json(response)).toEqual({ success: true, data: { id: ID, name: "Collar", quantity: 2 } });
    expect(response.headers.get("content-type")).toContain("application/json");
    expectRateLimitHeaders(response);
  });

  it("answers malformed JSON with 400 VALIDATION_ERROR", async () => {
    const response = await call(echo, apiRequest(`/api/v1/test/items/${ID}`, { method: "POST", rawBody: '{"name": "Collar",', headers: { "content-type": "application/json" } }), { id: ID });
    expect(response.status).toBe(400);
    const body = await json<{ success: boolean; error: { code: string; details: { issues: unknown[]; fieldErrors: Record<string, string[]> } } }>(response);
    expect(body.success).toBe(false);
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.details.issues).toEqual([{ field: "body", message: "The request body is not valid JSON." }]);
    expect(body.error.details.fieldErrors.body).toHaveLength(1);
    expectRateLimitHeaders(response);
  });

  it("reports per-field problems as both an issue list and a field map", async () => {
    const response = await call(echo, apiRequest(`/api/v1/test/items/${ID}`, { method: "POST", body: { name: "", quantity: 500, note: "x".repeat(501) } }), { id: ID });
    expect(response.status).toBe(400);
    const { error } = await json<{ error: { code: string; details: { issues: { field: string; message: string }[]; fieldErrors: Record<string, string[]> } } }>(response);
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.details.issues.map((issue) => issue.field).sort()).toEqual(["name", "note", "quantity"]);
    expect(Object.keys(error.details.fieldErrors).sort()).toEqual(["name", "note", "quantity"]);
    expect(error.details.fieldErrors.quantity?.[0]).toBeTruthy();
  });

  it("treats an empty body as an object with every required field missing", async () => {
    const response = await call(echo, apiRequest(`/api/v1/test/items/${ID}`, { method: "POST" }), { id: ID });
    expect(response.status).toBe(400);
    const { error } = await json<{ error: { details: { fieldErrors: Record<string, string[]> } } }>(response);
    expect(Object.keys(error.details.fieldErrors).sort()).toEqual(["name", "quantity"]);
  });

  it("refuses a 2 MB body with 413 PAYLOAD_TOO_LARGE, declared or streamed", async () => {
    const big = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024), quantity: 1 });
    const declared = await call(echo, apiRequest(`/api/v1/test/items/${ID}`, { method: "POST", rawBody: big, headers: { "content-type": "application/json", "content-length": String(big.length) } }), { id: ID });
    expect(declared.status).toBe(413);
    expect((await json<{ error: { code: string } }>(declared)).error.code).toBe("PAYLOAD_TOO_LARGE");
    expectRateLimitHeaders(declared);

    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const chunk = new TextEncoder().encode("x".repeat(256 * 1024));
        for (let i = 0; i < 8; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const streamed = await call(echo, apiRequest(`/api/v1/test/items/${ID}`, { method: "POST", rawBody: stream, headers: { "content-type": "application/json" } }), { id: ID });
    expect(streamed.status).toBe(413);
    expect((await json<{ error: { code: string } }>(streamed)).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("answers a malformed UUID in the path with 404 NOT_FOUND", async () => {
    const response = await call(echo, apiRequest("/api/v1/test/items/not-a-uuid", { method: "POST", body: { name: "a", quantity: 1 } }), { id: "not-a-uuid" });
    expect(response.status).toBe(404);
    expect((await json<{ error: { code: string } }>(response)).error.code).toBe("NOT_FOUND");
  });

  it("paginates with meta and validates page and limit without clamping", async () => {
    const first = await json<{ data: unknown[]; meta: unknown }>(await call(list, apiRequest("/api/v1/test/list")));
    expect(first.data).toHaveLength(10);
    expect(first.meta).toEqual({ total: 23, page: 1, totalPages: 3 });
    const last = await json<{ data: { n: number }[]; meta: unknown }>(await call(list, apiRequest("/api/v1/test/list?page=3&limit=10")));
    expect(last.data.map((item) => item.n)).toEqual([21, 22, 23]);
    for (const bad of ["page=0", "limit=0", "limit=101", "page=abc", "page=1.5"]) {
      const response = await call(list, apiRequest(`/api/v1/test/list?${bad}`));
      expect(response.status, bad).toBe(400);
      expect((await json<{ error: { code: string } }>(response)).error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("maps domain errors to their statuses and codes", async () => {
    const expected = { conflict: [409, "CONFLICT"], forbidden: [403, "FORBIDDEN"], transition: [400, "INVALID_TRANSITION"], unprocessable: [422, "UNPROCESSABLE_ENTITY"] } as const;
    for (const [kind, [status, code]] of Object.entries(expected)) {
      const response = await call(domainFailing, apiRequest(`/api/v1/test/fail/${kind}`), { kind });
      expect(response.status).toBe(status);
      const body = await json<{ success: boolean; error: { code: string; details?: unknown } }>(response);
      expect(body).toMatchObject({ success: false, error: { code } });
      if (kind === "unprocessable") expect(body.error.details).toEqual({ tier: "FREE", limit: 5 });
    }
  });

  it("hides unexpected errors behind 500 INTERNAL_ERROR with a generic message and the request id", async () => {
    const response = await call(failing, apiRequest("/api/v1/test/boom"));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("secret");
    expect(text).not.toContain("at ");
    expect(JSON.parse(text)).toEqual({ success: false, error: { code: "INTERNAL_ERROR", message: expect.any(String) } });
    expect(response.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps a well-formed incoming X-Request-Id and replaces a malformed one", async () => {
    const kept = await call(list, apiRequest("/api/v1/test/list", { headers: { "X-Request-Id": "trace-abc-123456" } }));
    expect(kept.headers.get("X-Request-Id")).toBe("trace-abc-123456");
    const replaced = await call(list, apiRequest("/api/v1/test/list", { headers: { "X-Request-Id": "bad id with spaces" } }));
    expect(replaced.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses anonymous callers on protected endpoints with 401", async () => {
    for (const handler of [privateThing, adminThing]) {
      const response = await call(handler, apiRequest("/api/v1/test/private", { headers: { Authorization: "Bearer not-a-token" } }));
      expect(response.status).toBe(401);
      expect((await json<{ error: { code: string } }>(response)).error.code).toBe("UNAUTHORIZED");
      expectRateLimitHeaders(response);
    }
  });

  it("marks API responses uncacheable and open to any origin without credentials", async () => {
    const response = await call(list, apiRequest("/api/v1/test/list", { headers: { Origin: "https://elsewhere.example" } }));
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Access-Control-Allow-Credentials")).toBeNull();
    expect(response.headers.get("Access-Control-Expose-Headers")).toContain("X-RateLimit-Remaining");
  });
});

describe("API kernel: unknown paths", () => {
  it("answers every method on an unknown /api/v1 path with the 404 envelope and rate-limit headers", async () => {
    for (const [method, handler] of [["GET", unknownGet], ["POST", unknownPost], ["DELETE", unknownDelete]] as const) {
      const response = await call(handler, apiRequest("/api/v1/no/such/thing", { method }), { path: ["no", "such", "thing"] });
      expect(response.status).toBe(404);
      expect(await json(response)).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
      expectRateLimitHeaders(response);
    }
  });
});

describe("API kernel: rate limits", () => {
  it("blocks after the general limit with 429, Retry-After and RATE_LIMIT_EXCEEDED", async () => {
    await awayFromWindowEdge(60_000, 30_000);
    const ip = nextTestIp();
    let last: Response | undefined;
    for (let i = 0; i < 100; i++) {
      last = await call(list, apiRequest("/api/v1/test/list", { ip }));
      expect(last.status).toBe(200);
    }
    expect(last?.headers.get("X-RateLimit-Limit")).toBe("100");
    expect(last?.headers.get("X-RateLimit-Remaining")).toBe("0");
    const blocked = await call(list, apiRequest("/api/v1/test/list", { ip }));
    expect(blocked.status).toBe(429);
    expect(await json(blocked)).toEqual({ success: false, error: { code: "RATE_LIMIT_EXCEEDED", message: "Too many requests. Please try again later." } });
    const retryAfter = Number(blocked.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(blocked.headers.get("X-RateLimit-Remaining")).toBe("0");

    // Another client is unaffected.
    expect((await call(list, apiRequest("/api/v1/test/list", { ip: nextTestIp() }))).status).toBe(200);
  });

  it("reports the tightest of several limits", async () => {
    await awayFromWindowEdge(60 * 60_000, 60_000);
    const ip = nextTestIp();
    const response = await call(register, apiRequest("/api/v1/test/register", { method: "POST", ip }));
    expect(response.status).toBe(200);
    // auth: 10/min leaves 9; registration: 5/hour leaves 4 — the headers show registration.
    expect(response.headers.get("X-RateLimit-Limit")).toBe("5");
    expect(response.headers.get("X-RateLimit-Remaining")).toBe("4");
    for (let i = 0; i < 4; i++) await call(register, apiRequest("/api/v1/test/register", { method: "POST", ip }));
    const blocked = await call(register, apiRequest("/api/v1/test/register", { method: "POST", ip }));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(60);
  });

  it("ignores a forged X-Forwarded-For when the proxy is not trusted", async () => {
    await awayFromWindowEdge(60 * 60_000, 60_000);
    const ip = nextTestIp();
    for (let i = 0; i < 5; i++) {
      await call(register, apiRequest("/api/v1/test/register", { method: "POST", ip, headers: { "X-Forwarded-For": `192.0.2.${i}` } }));
    }
    const blocked = await call(register, apiRequest("/api/v1/test/register", { method: "POST", ip, headers: { "X-Forwarded-For": "192.0.2.99" } }));
    expect(blocked.status).toBe(429);
  });

  it("answers CORS preflight without counting it against the limit", async () => {
    const ip = nextTestIp();
    const request = () => apiRequest("/api/v1/test/list", { method: "OPTIONS", ip, headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type" } });
    const first = await preflight(request());
    expect(first.status).toBe(204);
    expect(first.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(first.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
    expect(first.headers.get("Access-Control-Allow-Methods")).toContain("PATCH");
    expectRateLimitHeaders(first);
    const second = await preflight(request());
    expect(second.headers.get("X-RateLimit-Remaining")).toBe(first.headers.get("X-RateLimit-Remaining"));
    const real = await call(list, apiRequest("/api/v1/test/list", { ip }));
    expect(Number(real.headers.get("X-RateLimit-Remaining"))).toBe(Number(first.headers.get("X-RateLimit-Remaining")) - 1);
  });
});

describe("API kernel: unsupported methods", () => {
  it("answers a method the path does not support with the 405 envelope, Allow and rate-limit headers", async () => {
    const { POST, DELETE } = await import("@/app/api/v1/openapi.json/route");
    for (const handler of [POST, DELETE]) {
      const response = await call(handler, apiRequest("/api/v1/openapi.json", { method: "POST" }));
      expect(response.status).toBe(405);
      expect(await json(response)).toEqual({ success: false, error: { code: "METHOD_NOT_ALLOWED", message: expect.any(String), details: { allowed: ["GET", "OPTIONS"] } } });
      expect(response.headers.get("Allow")).toBe("GET, OPTIONS");
      expectRateLimitHeaders(response);
    }
  });
});
