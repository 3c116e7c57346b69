import { describe, expect, it } from "vitest";
import { errorStatus, isDatabaseUnavailable, toDomainError } from "@/lib/http/errors";
import { clientIp, PEER_ADDRESS_HEADER } from "@/lib/http/client-ip";
import { errorCodes, ServiceUnavailableError, ValidationError } from "@/lib/services/errors";
import { z } from "zod";

describe("error table", () => {
  it("gives every code the specification's status", () => {
    expect(errorStatus).toMatchObject({
      VALIDATION_ERROR: 400,
      INVALID_TRANSITION: 400,
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      TWO_FACTOR_REQUIRED: 403,
      TAG_CLONE_DETECTED: 403,
      NOT_FOUND: 404,
      CONFLICT: 409,
      PAYLOAD_TOO_LARGE: 413,
      UNPROCESSABLE_ENTITY: 422,
      RATE_LIMIT_EXCEEDED: 429,
      INTERNAL_ERROR: 500,
      PAYMENT_PROVIDER_ERROR: 502,
      SERVICE_UNAVAILABLE: 503,
    });
    for (const code of errorCodes) expect(errorStatus[code]).toBeGreaterThanOrEqual(400);
  });

  it("turns unknown errors into INTERNAL_ERROR without their message", () => {
    const error = toDomainError(new Error("password=hunter2"));
    expect(error.code).toBe("INTERNAL_ERROR");
    expect(error.message).not.toContain("hunter2");
  });

  it("turns a deadlock, a serialization failure or a lock not available (also wrapped, as drizzle does) into a 503 to retry in a second", () => {
    for (const code of ["40P01", "40001", "55P03"]) {
      const driver = Object.assign(new Error("deadlock detected"), { code });
      const error = toDomainError(new Error("Failed query: update …", { cause: driver }));
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect(error.code).toBe("SERVICE_UNAVAILABLE");
      expect((error as ServiceUnavailableError).retryAfterSeconds).toBe(1);
    }
    // Other SQLSTATEs stay internal errors (a unique violation a service did not expect, say).
    expect(toDomainError(Object.assign(new Error("duplicate key"), { code: "23505" })).code).toBe("INTERNAL_ERROR");
  });

  it("turns a ZodError into VALIDATION_ERROR with both detail forms", () => {
    const parsed = z.object({ email: z.email(), age: z.number() }).safeParse({ email: "nope", age: "x" });
    const error = toDomainError(parsed.error);
    expect(error).toBeInstanceOf(ValidationError);
    const details = error.details as { issues: { field: string }[]; fieldErrors: Record<string, string[]> };
    expect(details.issues.map((i) => i.field).sort()).toEqual(["age", "email"]);
    expect(Object.keys(details.fieldErrors).sort()).toEqual(["age", "email"]);
  });

  it("recognises an unreachable database anywhere in the cause chain", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("timeout"), { code: "CONNECT_TIMEOUT" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate"), { code: "23505" }))).toBe(false);
    expect(toDomainError(new Error("wrapped", { cause: refused })).code).toBe("SERVICE_UNAVAILABLE");
  });
});

describe("client IP", () => {
  const headers = (values: Record<string, string>) => new Headers(values);

  it("uses the socket peer and ignores X-Forwarded-For unless a proxy is trusted", () => {
    const h = headers({ [PEER_ADDRESS_HEADER]: "::ffff:10.1.2.3", "x-forwarded-for": "203.0.113.9, 10.0.0.1" });
    expect(clientIp(h, 0)).toBe("10.1.2.3");
  });

  it("takes the N-th address from the right behind N proxies, never one the client wrote", () => {
    // The client sent "6.6.6.6, 7.7.7.7"; the load balancer appended the address it saw (198.51.100.7).
    const one = headers({ [PEER_ADDRESS_HEADER]: "10.0.0.2", "x-forwarded-for": "6.6.6.6, 7.7.7.7, 198.51.100.7" });
    expect(clientIp(one, 1)).toBe("198.51.100.7");
    // A CDN and then a load balancer: the CDN appended the client, the balancer appended the CDN.
    const two = headers({ [PEER_ADDRESS_HEADER]: "10.0.0.2", "x-forwarded-for": "6.6.6.6, 198.51.100.7, 10.0.0.9" });
    expect(clientIp(two, 2)).toBe("198.51.100.7");
    expect(clientIp(headers({ [PEER_ADDRESS_HEADER]: "10.0.0.2", "x-forwarded-for": "[2001:db8::5]" }), 1)).toBe("2001:db8::5");
  });

  it("uses the socket peer when the header has fewer entries than trusted proxies, or garbage there", () => {
    expect(clientIp(headers({ [PEER_ADDRESS_HEADER]: "10.0.0.2", "x-forwarded-for": "198.51.100.7" }), 2)).toBe("10.0.0.2");
    expect(clientIp(headers({ [PEER_ADDRESS_HEADER]: "10.0.0.2" }), 1)).toBe("10.0.0.2");
    expect(clientIp(headers({ [PEER_ADDRESS_HEADER]: "127.0.0.1", "x-forwarded-for": "6.6.6.6, not-an-ip" }), 1)).toBe("127.0.0.1");
    expect(clientIp(headers({}), 0)).toBe("unknown");
  });
});
