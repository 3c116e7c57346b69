import { createServer, get as httpGet, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { NodeNextRequest, NodeNextResponse } from "next/dist/server/base-http/node";
import { sendResponse } from "next/dist/server/send-response";
import nextConfig from "@/next.config";
import { GET as openapi } from "@/app/api/v1/openapi.json/route";
import { DEMO_TAG_ENCRYPTED_ID } from "@/lib/services/scans/schemas";
import { apiRequest, call, json } from "../support/http";
import { deref } from "../support/openapi-examples";

type ResponseObject = { $ref?: string; description?: string; content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> };
type Doc = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, ResponseObject> }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }>; securitySchemes: Record<string, unknown>; responses: Record<string, ResponseObject>; parameters: Record<string, unknown> };
};

describe("GET /api/v1/openapi.json", () => {
  it("serves an OpenAPI 3.1 document built from the endpoint schemas", async () => {
    const response = await call(openapi, apiRequest("/api/v1/openapi.json"));
    expect(response.status).toBe(200);
    expect(response.headers.get("X-RateLimit-Limit")).toBeTruthy();
    const doc = await json<Doc>(response);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBe("Tag Service API");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/health", "/api/v1/openapi.json"]));
    expect(doc.paths["/api/v1/{path}"]).toBeUndefined();
  });

  it("shares the envelope, validation details and pagination components", async () => {
    const doc = await json<Doc>(await call(openapi, apiRequest("/api/v1/openapi.json")));
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["ErrorEnvelope", "ValidationDetails", "PageMeta", "HealthStatus"]));
    expect(Object.keys(doc.components.schemas.PageMeta?.properties ?? {})).toEqual(["total", "page", "totalPages", "totalIsEstimate", "nextCursor"]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(["bearerAuth", "apiKey"]));
    const health = doc.paths["/api/health"]?.get;
    expect(deref(doc, health?.responses["503"])?.content?.["application/json"]).toBeDefined();
    const self = doc.paths["/api/v1/openapi.json"]?.get;
    expect(Object.keys(deref(doc, self?.responses["429"])?.headers ?? {})).toEqual(expect.arrayContaining(["Retry-After", "X-RateLimit-Reset"]));
  });
});

describe("OpenAPI coverage", () => {
  it("lists every status an operation can answer: a credential's 401/403 wherever one is read, 404 on activation, 200 and 201 on create-or-replace", async () => {
    const doc = await json<Doc>(await call(openapi, apiRequest("/api/v1/openapi.json")));
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path]?.[method]?.responses ?? {});
    // A suspended user's credential is 403 everywhere, a bad bearer token 401 even where none is needed.
    expect(statuses("/api/v1/auth/me", "get")).toEqual(expect.arrayContaining(["200", "401", "403"]));
    expect(statuses("/api/v1/scan/{encryptedId}", "get")).toEqual(expect.arrayContaining(["401", "403"]));
    // The webhook reads no credential at all.
    expect(statuses("/api/v1/webhooks/payment", "post")).not.toContain("401");
    expect(statuses("/api/v1/tags/activate", "post")).toEqual(expect.arrayContaining(["201", "404", "409", "422"]));
    const insurance = doc.paths["/api/v1/tags/{id}/insurance"]?.post;
    expect(Object.keys(insurance?.responses ?? {})).toEqual(expect.arrayContaining(["200", "201"]));
    expect(insurance?.responses["200"]?.content?.["application/json"]).toEqual(insurance?.responses["201"]?.content?.["application/json"]);
  });

  it("documents every declared endpoint with its method, and secures the protected ones", async () => {
    const { allEndpoints } = await import("@/lib/http/endpoints");
    const doc = await json<Doc & { security?: unknown[]; paths: Record<string, Record<string, { security?: unknown[]; requestBody?: unknown }>> }>(await call(openapi, apiRequest("/api/v1/openapi.json")));
    // The document's `security` is every operation's that names none of its own; a public one names [].
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }, { cookieSession: [] }]);
    for (const endpoint of allEndpoints.filter((e) => !e.hidden)) {
      const operation = doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
      expect(operation, `${endpoint.method} ${endpoint.path}`).toBeDefined();
      const security = operation?.security ?? doc.security;
      if (endpoint.auth === "user" || endpoint.auth === "admin") expect(security, endpoint.path).toEqual(doc.security);
      if (endpoint.auth === "public") expect(security, endpoint.path).toEqual([]);
      if (endpoint.body) expect(operation?.requestBody, endpoint.path).toBeDefined();
    }
    expect(doc.paths["/api/v1/auth/login"]?.post).toBeDefined();
    const upload = doc.paths["/api/v1/profiles/{tagId}/photos"]?.post as { requestBody?: { content?: Record<string, unknown> } } | undefined;
    expect(Object.keys(upload?.requestBody?.content ?? {})).toEqual(["multipart/form-data"]);
    const qr = doc.paths["/api/v1/tags/{id}/qr"]?.get as { responses: Record<string, { content?: Record<string, unknown> }> } | undefined;
    expect(Object.keys(qr?.responses["200"]?.content ?? {})).toEqual(["image/png", "image/svg+xml"]);
    const label = doc.paths["/api/v1/tags/{id}/label"]?.get as { responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }> } | undefined;
    expect(Object.keys(label?.responses["200"]?.content ?? {})).toEqual(["application/pdf", "image/png", "image/svg+xml"]);
    expect(Object.keys(label?.responses["200"]?.headers ?? {})).toContain("Content-Disposition");
    const sheet = doc.paths["/api/v1/tags/labels/sheet"]?.get as { parameters?: { name: string; schema: unknown }[]; responses: Record<string, { content?: Record<string, unknown> }> } | undefined;
    expect(Object.keys(sheet?.responses["200"]?.content ?? {})).toEqual(["application/pdf"]);
    expect(sheet?.parameters?.map((parameter) => deref(doc, parameter)).find((parameter) => parameter.name === "tagId")?.schema).toMatchObject({ type: "array", items: { type: "string", format: "uuid" }, minItems: 1, maxItems: 100 });
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["User", "Session", "ApiKey"]));
  });
});

describe("operations whose call reaches a real tag owner", () => {
  type Operation = { description?: string; parameters?: { name: string; in: string; example?: unknown; schema?: { example?: unknown } }[] };
  // "Try it out" on these sends a real request: a scan notifies the owner, a contact opens a conversation,
  // a location reaches the owner, an emergency read notifies them. Their examples name the seeded demo tag.
  it.each([
    ["get", "/api/v1/scan/{encryptedId}"],
    ["post", "/api/v1/scan/{encryptedId}/contact"],
    ["post", "/api/v1/scan/{encryptedId}/location"],
    ["get", "/api/v1/scan/{encryptedId}/emergency"],
  ])("%s %s says so first and its example is the demo tag", async (method, path) => {
    const doc = await json<{ paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> }>(await call(openapi, apiRequest("/api/v1/openapi.json")));
    const operation = doc.paths[path]?.[method];
    expect(operation?.description).toMatch(/^\*\*Side effect on a real owner:\*\*/);
    expect(operation?.description).toContain(DEMO_TAG_ENCRYPTED_ID);
    const param = operation?.parameters?.map((p) => deref(doc, p)).find((p) => p.name === "encryptedId");
    expect(param?.example ?? param?.schema?.example).toBe(DEMO_TAG_ENCRYPTED_ID);
  });
});

describe("a compact document", () => {
  const operations = (doc: Doc) => Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ label: `${method} ${path}`, operation })));

  it("names every operation with a unique verb-noun operationId", async () => {
    const doc = await json<Doc>(await call(openapi, apiRequest("/api/v1/openapi.json")));
    const ids = operations(doc).map(({ label, operation }) => {
      expect(operation.operationId, label).toMatch(/^[a-z][A-Za-z0-9]*$/);
      return operation.operationId;
    });
    expect(ids.length).toBeGreaterThan(100);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(doc.paths["/api/v1/tags"]?.get?.operationId).toBe("listTags");
    expect(doc.paths["/api/v1/scan/{encryptedId}"]?.get?.operationId).toBe("getScanView");
    expect(doc.paths["/api/v1/rewards/confirm-return/{tagId}"]?.post?.operationId).toBe("confirmReturn");
  });

  it("refers to shared error responses and parameters instead of writing them out on every operation", async () => {
    const response = await call(openapi, apiRequest("/api/v1/openapi.json"));
    const text = await response.text();
    const doc = JSON.parse(text) as Doc & { paths: Record<string, Record<string, { parameters?: { $ref?: string }[] }>> };
    for (const { label, operation } of operations(doc)) {
      for (const [status, answer] of Object.entries(operation.responses)) {
        if (Number(status) >= 400) expect(answer.$ref, `${label} ${status}`).toMatch(/^#\/components\/responses\//);
      }
    }
    expect(doc.components.responses.NotFound?.description).toContain("NOT_FOUND");
    expect(doc.paths["/api/v1/tags/activate"]?.post?.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKeyHeader" });
    expect(doc.paths["/api/v1/tags/{id}"]?.get?.parameters).toContainEqual({ $ref: "#/components/parameters/IdPath" });
    // 806 KB for 149 operations when every error response was written out on each one; about 2 KB an
    // operation since (296 KB for 154, 351 KB for 177): the bound catches a return to copies, not growth
    // by new operations (docs/api.md#size).
    expect(Buffer.byteLength(text) / operations(doc).length).toBeLessThan(2_200);
    expect(doc.paths["/api/v1/auth/logout"]?.post?.responses["200"]).toEqual({ $ref: "#/components/responses/MessageSuccessIdempotent" });
  });
});

describe("serving the document", () => {
  const get = (headers: Record<string, string> = {}) => call(openapi, apiRequest("/api/v1/openapi.json", { headers }));

  it("sends the JSON with an ETag and a cache lifetime, leaving compression to next start", async () => {
    // A Content-Encoding set here is dropped by Next on the way out (raw gzip bytes reached the browser
    // as "JSON"): the handler sends plain JSON whatever the client accepts.
    for (const acceptEncoding of [undefined, "gzip, deflate, br"]) {
      const response = await get(acceptEncoding ? { "accept-encoding": acceptEncoding } : {});
      expect(response.status).toBe(200);
      expect(response.headers.get("content-encoding")).toBeNull();
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(response.headers.get("cache-control")).toBe("public, max-age=300");
      expect(response.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect((JSON.parse(await response.text()) as { openapi: string }).openapi).toMatch(/^3\.1/);
    }
  });

  it("answers 304 without a body to a client that already has it", async () => {
    const first = await get({ "accept-encoding": "gzip" });
    const etag = first.headers.get("etag")!;
    await first.body?.cancel();
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const again = await get({ "accept-encoding": "gzip", "if-none-match": ifNoneMatch });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("cache-control")).toBe("public, max-age=300");
      expect(await again.text()).toBe("");
    }
    const changed = await get({ "if-none-match": '"an-older-document"' });
    expect(changed.status).toBe(200);
    await changed.body?.cancel();
  });

  // What `next start` does with the handler's answer, without starting it: the compression middleware it
  // puts in front of every response (next/dist/compiled/compression), the headers of next.config.ts set
  // as its router sets them, and the handler's Response written out by Next's own sendResponse.
  type Compress = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  const compression = createRequire(import.meta.url)("next/dist/compiled/compression") as () => Compress;

  async function throughNextStart(configHeaders: { key: string; value: string }[]): Promise<{ headers: IncomingMessage["headers"]; body: Buffer }> {
    const compress = compression();
    const server = createServer((req, res) => {
      compress(req, res, () => {});
      for (const { key, value } of configHeaders) res.setHeader(key, value);
      void get({ "accept-encoding": req.headers["accept-encoding"] ?? "" }).then((response) => sendResponse(new NodeNextRequest(req), new NodeNextResponse(res), response));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      return await new Promise((resolve, reject) => {
        httpGet({ port, host: "127.0.0.1", path: "/api/v1/openapi.json", headers: { "accept-encoding": "gzip, deflate, br" } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
    } finally {
      server.close();
    }
  }

  it("is gzipped by next start, thanks to the Content-Type that next.config.ts sets for it", async () => {
    const rules = (await nextConfig.headers?.()) ?? [];
    const configHeaders = rules.filter((rule) => rule.source === "/api/v1/openapi.json").flatMap((rule) => rule.headers);
    expect(configHeaders).toContainEqual({ key: "Content-Type", value: "application/json" });

    const compressed = await throughNextStart(configHeaders);
    expect(compressed.headers["content-encoding"]).toBe("gzip");
    expect(compressed.headers["content-type"]).toBe("application/json");
    expect(compressed.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(compressed.headers["cache-control"]).toBe("public, max-age=300");
    const text = gunzipSync(compressed.body).toString("utf8");
    expect((JSON.parse(text) as { openapi: string }).openapi).toBe("3.1.0");
    expect(compressed.body.length).toBeLessThan(Buffer.byteLength(text) / 4);

    // Without it the handler's own Content-Type reaches the middleware as a list, which it does not
    // compress. When this fails, Next compresses route handlers itself and the rule in next.config.ts can go.
    const plain = await throughNextStart([]);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect((JSON.parse(plain.body.toString("utf8")) as { openapi: string }).openapi).toBe("3.1.0");
  });
});
