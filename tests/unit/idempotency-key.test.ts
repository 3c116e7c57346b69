import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/services/errors";
import { canonicalJson, idempotencyApplies, isStorableStatus, parseIdempotencyKey, requestHash } from "@/lib/http/idempotency";

describe("parseIdempotencyKey", () => {
  it("takes 1 to 255 printable ASCII characters, and no header as no key", () => {
    expect(parseIdempotencyKey(null)).toBeUndefined();
    expect(parseIdempotencyKey("a")).toBe("a");
    expect(parseIdempotencyKey("5f0c2a8e-6a41-4d3c-9f57-0b6a9a1d2e11")).toBe("5f0c2a8e-6a41-4d3c-9f57-0b6a9a1d2e11");
    expect(parseIdempotencyKey("order 42: retry ~!@#$%^&*()")).toBe("order 42: retry ~!@#$%^&*()");
    expect(parseIdempotencyKey("k".repeat(255))).toHaveLength(255);
  });

  it.each([
    ["empty", ""],
    ["too long", "k".repeat(256)],
    ["non-ASCII", "clé"],
    ["a control character", "key\u0001"],
    ["DEL", "key\u007f"],
  ])("refuses %s with a validation error naming the header", (_label, value) => {
    let thrown: unknown;
    try {
      parseIdempotencyKey(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).details).toMatchObject({ issues: [{ field: "Idempotency-Key" }], fieldErrors: { "Idempotency-Key": [expect.any(String)] } });
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every level and drops undefined members, keeping array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "x" }, u: undefined })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson([2, 1, undefined])).toBe("[2,1,null]");
    expect(canonicalJson(null)).toBe("null");
    expect(canonicalJson("é\"")).toBe(JSON.stringify("é\""));
  });
});

describe("requestHash", () => {
  const base = { method: "POST", path: "/api/v1/tags/activate", body: { json: { code: "ABCDE-12345", tagType: "PET" } } };

  it("is the same for the same request, whatever the key order", () => {
    expect(requestHash(base)).toBe(requestHash({ ...base, method: "post", body: { json: { tagType: "PET", code: "ABCDE-12345" } } }));
  });

  it("changes with the method, path, query or body", () => {
    const hash = requestHash(base);
    expect(requestHash({ ...base, method: "PUT" })).not.toBe(hash);
    expect(requestHash({ ...base, path: "/api/v1/tags/bulk-activate" })).not.toBe(hash);
    expect(requestHash({ ...base, path: "/api/v1/tags/activate?x=1" })).not.toBe(hash);
    expect(requestHash({ ...base, body: { json: { code: "ABCDE-12346", tagType: "PET" } } })).not.toBe(hash);
    expect(requestHash({ ...base, body: undefined })).not.toBe(hash);
    expect(requestHash({ ...base, body: { bytes: new TextEncoder().encode("a") } })).not.toBe(requestHash({ ...base, body: { bytes: new TextEncoder().encode("b") } }));
  });

  it("is keyed (not a bare SHA-256 of a body that may hold a password)", () => {
    expect(requestHash(base)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("where the header applies", () => {
  it("is every signed-in POST under /api/v1 that does not opt out", () => {
    expect(idempotencyApplies({ method: "POST", path: "/api/v1/tags/activate", auth: "user" })).toBe(true);
    expect(idempotencyApplies({ method: "POST", path: "/api/v1/scan/{encryptedId}/contact", auth: "optional" })).toBe(true);
    expect(idempotencyApplies({ method: "POST", path: "/api/v1/admin/tags/batch", auth: "admin" })).toBe(true);
    expect(idempotencyApplies({ method: "POST", path: "/api/v1/auth/login", auth: "public" })).toBe(false);
    expect(idempotencyApplies({ method: "POST", path: "/api/v1/auth/api-keys", auth: "user", idempotency: false })).toBe(false);
    expect(idempotencyApplies({ method: "GET", path: "/api/v1/tags", auth: "user" })).toBe(false);
    expect(idempotencyApplies({ method: "PATCH", path: "/api/v1/tags/{id}", auth: "user" })).toBe(false);
    expect(idempotencyApplies({ method: "POST", path: "/api/dev/thing", auth: "user" })).toBe(false);
  });

  it("keeps answers below 500 except 429", () => {
    expect([200, 201, 204, 400, 404, 409, 422].every(isStorableStatus)).toBe(true);
    expect([429, 500, 503].some(isStorableStatus)).toBe(false);
  });
});
