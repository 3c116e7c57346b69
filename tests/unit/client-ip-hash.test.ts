import { describe, expect, it } from "vitest";
import { keyedHash } from "@/lib/auth/tokens";
import { env } from "@/lib/env";
import { hashClientIp } from "@/lib/services/visitor";

describe("a client IP's keyed hash", () => {
  it("is the HMAC under the client-ip key, the same on every call, and null for an unknown address", () => {
    expect(hashClientIp("203.0.113.7")).toBe(keyedHash("client-ip", "203.0.113.7"));
    expect(hashClientIp("203.0.113.7")).toBe(keyedHash("client-ip", "203.0.113.7"));
    expect(hashClientIp("2001:db8::7")).toBe(keyedHash("client-ip", "2001:db8::7"));
    expect(hashClientIp("203.0.113.7")).not.toBe(hashClientIp("203.0.113.8"));
    expect(hashClientIp("")).toBeNull();
    expect(hashClientIp("unknown")).toBeNull();
  });

  it("stays right past the kept clients' bound (the oldest are computed again)", () => {
    const first = "198.18.0.1";
    const expected = keyedHash("client-ip", first);
    expect(hashClientIp(first)).toBe(expected);
    for (let i = 0; i < 10_050; i++) hashClientIp(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    expect(hashClientIp(first)).toBe(expected);
    expect(hashClientIp("10.0.0.5")).toBe(keyedHash("client-ip", "10.0.0.5"));
  });

  it("follows a new secret: nothing kept under the old key is answered", () => {
    const settings = env as { AUTH_SECRET?: string };
    const before = settings.AUTH_SECRET;
    const ip = "192.0.2.44";
    const underOld = hashClientIp(ip);
    try {
      settings.AUTH_SECRET = "another-secret-of-at-least-thirty-two-characters";
      expect(hashClientIp(ip)).toBe(keyedHash("client-ip", ip));
      expect(hashClientIp(ip)).not.toBe(underOld);
    } finally {
      settings.AUTH_SECRET = before;
    }
    expect(hashClientIp(ip)).toBe(underOld);
  });
});
