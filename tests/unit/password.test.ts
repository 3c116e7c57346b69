import { scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashPassword, passwordHashParams, verifyPassword } from "@/lib/auth/password";
import { buildEnv } from "@/lib/env";

// scrypt at N=2^17 takes a few hundred ms per hash on purpose; allow for a busy machine.
describe("password hashing", { timeout: 30_000 }, () => {
  it("stores scrypt at OWASP parameters with a random salt and verifies", async () => {
    const first = await hashPassword("Correct1horse");
    const second = await hashPassword("Correct1horse");
    expect(first).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword("Correct1horse", first)).toBe(true);
    expect(await verifyPassword("correct1horse", first)).toBe(false);
  });

  it("keeps OWASP's N=2^17 by default and in production; a lower cost only outside production, and older hashes still verify", async () => {
    expect(passwordHashParams(buildEnv({}))).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    expect(passwordHashParams(buildEnv({ PASSWORD_HASH_COST: "12" }))).toEqual({ N: 2 ** 12, r: 8, p: 1 });
    const production = { NODE_ENV: "production", AUTH_SECRET: "x".repeat(32), PAYMENT_WEBHOOK_SECRET: "y".repeat(16), VAPID_PUBLIC_KEY: "p".repeat(20), VAPID_PRIVATE_KEY: "q".repeat(20), VAPID_SUBJECT: "mailto:ops@example.com" };
    expect(passwordHashParams(buildEnv(production)).N).toBe(2 ** 17);
    expect(() => buildEnv({ ...production, PASSWORD_HASH_COST: "12" })).toThrow(/PASSWORD_HASH_COST/);
    // A hash made at another cost carries its parameters and verifies whatever the current setting.
    const salt = Buffer.alloc(16, 1);
    const key = scryptSync("Correct1horse".normalize("NFKC"), salt, 32, { N: 1024, r: 8, p: 1 }).toString("base64url");
    expect(await verifyPassword("Correct1horse", `scrypt$1024$8$1$${salt.toString("base64url")}$${key}`)).toBe(true);
  });

  it("rejects malformed stored hashes instead of throwing", async () => {
    expect(await verifyPassword("x", "")).toBe(false);
    expect(await verifyPassword("x", "bcrypt$1$2$3$4$5")).toBe(false);
  });
});
