import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { allEndpoints } from "@/lib/http/endpoints";
import type { Endpoint } from "@/lib/http";
import { rateLimitPolicyNames, type RateLimitPolicyOverrides } from "@/lib/ratelimit/policies";
import { resetRateLimiterForTests } from "@/lib/ratelimit";
import { apiRequest, nextTestIp } from "../support/http";
import { bearer, registerAccount, setRole, type TestAccount } from "../support/auth";
import { createTestProduct } from "../support/shop";
import { giveTestTag } from "../support/tags";
import { handlersFor } from "../support/route-files";
import { verifiedOrganisationFor } from "../support/organisations";
import { exampleBody, valuePaths, withValueAt, type OpenApiDocument } from "../support/openapi-examples";
import { buildOpenApiDocument } from "@/lib/openapi";

/**
 * Every endpoint of the contract table gets every hostile value of these lists in every place it takes
 * input (path params, query, each body field at any depth, the whole body, the content type). Each
 * hostile field value is sent inside an otherwise VALID body (built from the OpenAPI document's schemas
 * and examples, or the table below), so it gets past the other fields' validation into the service and
 * the database. Nothing may answer 5xx, every 4xx carries the error envelope, every status answered must
 * be one the operation documents in GET /api/v1/openapi.json, and a control character or a lone
 * surrogate in a string is a 400 that names the field. A new endpoint joins the sweep by being in
 * `allEndpoints`.
 */

/** Strings the API must refuse wherever it takes a string (NUL fails PostgreSQL; the rest is junk). */
const CONTROL_STRINGS = ["a\u0000b", "\u0000", "bell\u0007", "\u001b[31mred", "x\u007f\u0000"];

function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}


/** Strings that are not text (no UTF-8 form; jsonb refuses them): refused like control characters. */
const LONE_SURROGATES = ["\uD800", "a\uDC00b"];

/**
 * Put in place of each field (at any depth) of a valid body: null, wrong types, extremes (±1e308, 2^63 as
 * a number), 100 KB, an array and an object where a scalar goes.
 */
const FIELD_VALUES: unknown[] = [null, true, "12", 1e308, -1e308, 9223372036854775808, "x".repeat(100 * 1024), [], {}];

/** More for top-level fields only (each costs a request per field of every operation): text that has broken APIs, deep nesting. */
const TOP_FIELD_VALUES: unknown[] = [
  1.5,
  -1,
  0,
  "",
  " ",
  ["x"],
  { a: "x" },
  "' OR 1=1 --",
  "\uFEFF\u202Eevil",
  "%E0%A4%A",
  "<script>alert(1)</script>",
  "../../../etc/passwd",
  "x".repeat(200_000),
  nested(2_000),
  ["a\u0000"],
  { a: "\u0000" },
  ["\uD800"],
];

/**
 * Valid bodies for operations whose rules the JSON Schema in the document cannot express (a pattern, a
 * refinement across fields); every other operation's body is built from the document.
 */
const VALID_BODIES: Record<string, unknown> = {
  "POST /api/v1/auth/verify-2fa": { code: "123456" },
};

/** Valid bodies that name things which must exist for the operation to get to its database writes. */
const VALID_BODY_FACTORIES: Record<string, (account: TestAccount) => Promise<unknown>> = {
  // A found report needs a verified organisation (the sweep's own POST /organisations made it, unverified) and a recent foundAt.
  "POST /api/v1/organisations/found": async (account) => {
    await verifiedOrganisationFor(account.id);
    return { species: "DOG", colour: "brown", latitude: 51.5, longitude: -0.12, foundAt: new Date(Date.now() - 3_600_000).toISOString(), note: "Found near the park gates." };
  },
  "POST /api/v1/orders": async (account) => {
    const product = await createTestProduct(account, { stock: 100_000 });
    return { items: [{ productId: product.id, quantity: 1 }], shippingAddress: { line1: "1 Main St", line2: "Flat 2", city: "Springfield", state: "IL", postalCode: "62701", country: "US" } };
  },
};

/** Path segments as Next hands them to a handler (already percent-decoded). */
const HOSTILE_PARAMS = ["a\u0000b", "not-a-uuid", "00000000-0000-0000-0000-000000000000", "../..", "x".repeat(5_000), "' OR 1=1", "%", "\uD800", "%E0%A4%A"];

const HOSTILE_QUERY = [...CONTROL_STRINGS, "-1", "0", "abc", "1e999", "99999999999999999999", "%00", "\uD800", "x".repeat(5_000)];

/** Query values written into the URL as they are: broken percent-encoding, and an encoded NUL (refused, named). */
const RAW_QUERY = ["%E0%A4%A", "%zz", "%", "%C3%28", "%ED%A0%80"];
const RAW_QUERY_NUL = "a%00b";

/** Whole bodies, sent as application/json. */
const HOSTILE_RAW_BODIES = ["{", "null", "[]", '"text"', "1", "true", "[".repeat(100_000) + "]".repeat(100_000), '{"a":'.repeat(20_000) + "1" + "}".repeat(20_000), '{"a":"\\ud800"}', "{'a':1}", '{"a":1,}', '{"__proto__":{"role":"SUPER_ADMIN"},"constructor":{"prototype":{"x":1}}}', "\u0000", '{"a":"\\u0000"}', "\uFEFF{}"];

const WRONG_CONTENT_TYPES = ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", null];

// Every limit out of the way: the sweep is thousands of requests from one account.
const unlimited = Object.fromEntries(rateLimitPolicyNames.map((name) => [name, { limit: 1_000_000, windowMs: 60_000 }])) as RateLimitPolicyOverrides;

const endpoints = await handlersFor(allEndpoints.filter((endpoint) => endpoint.path.startsWith("/api/v1/")));

// The document the API serves (GET /api/v1/openapi.json is built by this function).
const document = buildOpenApiDocument() as unknown as OpenApiDocument;

/** The statuses an operation documents; undefined for one left out of the document (development only). */
function documentedStatuses(endpoint: Endpoint): Set<number> | undefined {
  const operation = document.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
  return operation ? new Set(Object.keys(operation.responses ?? {}).map(Number)) : undefined;
}

beforeAll(() => {
  resetRateLimiterForTests(unlimited);
});

function shapeKeys(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

function pathFor(endpoint: Endpoint, params: Record<string, string | string[]>): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    const text = Array.isArray(value) ? value.join("/") : (value ?? "");
    try {
      return encodeURIComponent(text);
    } catch {
      return "lone-surrogate"; // the handler still gets `text` itself through its params
    }
  });
}

interface Problem {
  endpoint: string;
  case: string;
  problem: string;
}

describe.each(endpoints.map(({ endpoint, handler }) => [`${endpoint.method} ${endpoint.path}`, endpoint, handler] as const))("%s under hostile input", (_label, endpoint, handler) => {
  it("never answers 5xx or an undocumented status, answers every 4xx with the envelope, and names a field holding a control character or lone surrogate", async () => {
    const account = await registerAccount();
    await setRole(account.id, "SUPER_ADMIN");
    const tag = await giveTestTag(account.id, { tagType: "VEHICLE", itemName: "Car" });
    const validParams: Record<string, string | string[]> = { id: tag.id, tagId: tag.id, photoId: randomUUID(), vin: "1HGCM82633A004352", path: ["x"], token: "q3Vd1oGk2m8pYb7Q0wzR9xJtH4sLcN6eA5fU1iO3yKg", encryptedId: tag.encryptedId };
    const paramNames = shapeKeys(endpoint.params);
    const params = Object.fromEntries(paramNames.map((name) => [name, validParams[name] ?? randomUUID()]));
    const takesBody = Boolean(endpoint.body) && endpoint.method !== "GET";
    const documented = documentedStatuses(endpoint);
    const problems: Problem[] = [];

    const operation = `${endpoint.method} ${endpoint.path}`;
    const example = takesBody ? exampleBody(document, endpoint, VALID_BODIES[operation] ?? (await VALID_BODY_FACTORIES[operation]?.(account))) : undefined;
    if (example && !example.ok) problems.push({ endpoint: _label, case: "valid body", problem: `no valid example body (add one to VALID_BODIES): ${example.reason}` });
    const validBody = example?.ok ? example.body : takesBody ? {} : undefined;

    async function send(
      label: string,
      options: { params?: Record<string, string | string[]>; query?: [string, string][]; rawQuery?: string; body?: unknown; rawBody?: string; contentType?: string | null; rejectParams?: boolean },
      expectation?: (status: number, body: { error?: { code?: string; details?: { fieldErrors?: Record<string, string[]> } } } | null) => string | null,
    ) {
      const usedParams = options.params ?? params;
      const url = new URL(pathFor(endpoint, usedParams), "http://localhost:3000");
      for (const [key, value] of options.query ?? []) url.searchParams.append(key, value);
      // Written as is, so the handler sees the broken encoding itself (URL would re-encode a stray %).
      const search = options.rawQuery === undefined ? url.search : `?${options.rawQuery}`;
      const headers: Record<string, string> = { ...bearer(account.accessToken), origin: "http://localhost:3000" };
      let rawBody = options.rawBody;
      if (options.body !== undefined) rawBody = JSON.stringify(options.body);
      const contentType = options.contentType === undefined ? "application/json" : options.contentType;
      if (rawBody !== undefined && contentType) headers["content-type"] = contentType;
      const request = apiRequest(url.pathname + search, { method: endpoint.method, headers, rawBody: endpoint.method === "GET" ? undefined : rawBody, ip: nextTestIp() });
      const context = { params: options.rejectParams ? Promise.reject(new URIError("URI malformed")) : Promise.resolve(usedParams) };
      context.params.catch(() => {});
      let response: Response;
      try {
        response = await handler(request, context);
      } catch (error) {
        problems.push({ endpoint: _label, case: label, problem: `threw ${String(error)}` });
        return;
      }
      let body: Record<string, unknown> | null = null;
      if (response.status >= 400) {
        try {
          body = (await response.json()) as Record<string, unknown>;
        } catch {
          problems.push({ endpoint: _label, case: label, problem: `${response.status} without a JSON body` });
          return;
        }
        const error = body.error as { code?: unknown; message?: unknown } | undefined;
        if (body.success !== false || typeof error?.code !== "string" || typeof error.message !== "string") {
          problems.push({ endpoint: _label, case: label, problem: `${response.status} without the error envelope: ${JSON.stringify(body).slice(0, 200)}` });
        }
      } else {
        await response.body?.cancel().catch(() => {});
      }
      if (response.status >= 500) problems.push({ endpoint: _label, case: label, problem: `answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}` });
      else if (documented && !documented.has(response.status)) {
        problems.push({ endpoint: _label, case: label, problem: `answered ${response.status} ${(body?.error as { code?: string } | undefined)?.code ?? ""}, which the OpenAPI document does not list (${[...documented].join(", ")})` });
      }
      const unmet = expectation?.(response.status, body as never);
      if (unmet) problems.push({ endpoint: _label, case: label, problem: unmet });
    }

    const notFound = (status: number) => (status === 404 ? null : `expected 404, got ${status}`);
    const namesField = (field: string) => (status: number, body: { error?: { code?: string; details?: { fieldErrors?: Record<string, string[]> } } } | null) => {
      if (status !== 400 || body?.error?.code !== "VALIDATION_ERROR") return `expected 400 VALIDATION_ERROR, got ${status} ${body?.error?.code ?? ""}`;
      const fields = Object.keys(body.error.details?.fieldErrors ?? {});
      return fields.some((name) => name === field || name.startsWith(`${field}.`)) ? null : `the error names ${fields.join(", ") || "no field"}, not ${field}`;
    };

    const paramShape = (endpoint.params?.shape ?? {}) as Record<string, z.ZodType>;
    for (const name of paramNames) {
      // docs/decisions/0004-error-envelope.md: a malformed id in a path is 404 (other segments, such as a VIN, may answer 400).
      const isId = paramShape[name]!.safeParse(randomUUID()).success && !paramShape[name]!.safeParse("not-a-uuid").success;
      for (const value of HOSTILE_PARAMS) {
        const malformedId = isId && !paramShape[name]!.safeParse(value).success;
        await send(`param ${name}=${JSON.stringify(value).slice(0, 40)}`, { params: { ...params, [name]: value }, body: validBody }, malformedId ? notFound : undefined);
      }
      if (name !== "path") await send(`param ${name} with a NUL`, { params: { ...params, [name]: `${String(params[name])}\u0000` }, body: validBody }, notFound);
    }
    // What Next does with a segment it cannot percent-decode (when it gets that far) is to reject params.
    if (paramNames.length) await send("params Next could not decode", { rejectParams: true, body: validBody }, notFound);

    for (const key of [...shapeKeys(endpoint.query), "unknownKey"]) {
      const named = key !== "unknownKey";
      // An unknown key is ignored whatever it holds: a few values show that, the rest go to the named ones.
      // With an unknown key, the body need not be valid: it would only run the operation again (a password
      // hash for sign-in) to show the key is ignored.
      const body = named ? validBody : takesBody ? {} : undefined;
      for (const value of named ? HOSTILE_QUERY : HOSTILE_QUERY.slice(-3)) {
        const refused = CONTROL_STRINGS.includes(value) && named;
        await send(`query ${key}=${JSON.stringify(value).slice(0, 40)}`, { query: [[key, value]], body }, refused ? namesField(key) : undefined);
      }
      for (const raw of RAW_QUERY) await send(`raw query ${key}=${raw}`, { rawQuery: `${key}=${raw}`, body });
      await send(`raw query ${key}=${RAW_QUERY_NUL}`, { rawQuery: `${key}=${RAW_QUERY_NUL}`, body }, named ? namesField(key) : undefined);
      await send(`query ${key} repeated`, { query: [[key, "1"], [key, "2"]], body });
    }

    if (takesBody) {
      for (const path of valuePaths(validBody)) {
        const field = path.join(".");
        const top = path.length === 1;
        const at = (value: unknown) => withValueAt(validBody, path, value);
        for (const value of [...LONE_SURROGATES, ...(top ? CONTROL_STRINGS : CONTROL_STRINGS.slice(0, 1))]) {
          await send(`body ${field}=${JSON.stringify(value)}`, { body: at(value) }, namesField(field));
        }
        for (const value of [...FIELD_VALUES, ...(top ? TOP_FIELD_VALUES : [])]) await send(`body ${field}=${JSON.stringify(value)?.slice(0, 40)}`, { body: at(value) });
      }
      // Fields the valid body leaves out (none when it was built from the document with every property).
      for (const field of shapeKeys(endpoint.body).filter((name) => !(validBody && typeof validBody === "object" && name in validBody))) {
        for (const value of [...LONE_SURROGATES, ...CONTROL_STRINGS]) await send(`body ${field}=${JSON.stringify(value)}`, { body: { ...(validBody as object), [field]: value } }, namesField(field));
        for (const value of FIELD_VALUES) await send(`body ${field}=${JSON.stringify(value)?.slice(0, 40)}`, { body: { ...(validBody as object), [field]: value } });
      }
      for (const raw of HOSTILE_RAW_BODIES) await send(`raw body ${JSON.stringify(raw.slice(0, 30))}`, { rawBody: raw });
      for (const type of WRONG_CONTENT_TYPES) {
        await send(`JSON body as ${type ?? "no content type"}`, { rawBody: JSON.stringify(validBody), contentType: type }, (status, body) =>
          status === 415 && body?.error?.code === "UNSUPPORTED_MEDIA_TYPE" ? null : `expected 415 UNSUPPORTED_MEDIA_TYPE, got ${status} ${body?.error?.code ?? ""}`,
        );
      }
      // 2 MB, or more than an endpoint's own larger limit (a found report's photo).
      const tooLarge = Math.max(2 * 1024 * 1024, (endpoint.bodyLimitBytes ?? 0) + 1024 * 1024);
      await send("a 2 MB body", { rawBody: JSON.stringify({ x: "y".repeat(tooLarge) }) }, (status) => (status === 413 ? null : `expected 413, got ${status}`));
      // Last: the valid body itself (it may change the account's state, e.g. sign it out).
      await send("the valid body", { body: validBody });
    } else if (endpoint.method !== "GET") {
      for (const raw of HOSTILE_RAW_BODIES.slice(0, 4)) await send(`unexpected body ${JSON.stringify(raw.slice(0, 30))}`, { rawBody: raw, contentType: "text/plain" });
      await send("no body", {});
    } else {
      await send("plain request", {});
    }

    expect(problems, JSON.stringify(problems.slice(0, 40), null, 1)).toEqual([]);
  });
});
