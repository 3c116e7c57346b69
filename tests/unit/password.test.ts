import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/auth/password";

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

  it("rejects malformed stored hashes instead of throwing", async () => {
    expect(await verifyPassword("x", "")).toBe(false);
    expect(await verifyPassword("x", "bcrypt$1$2$3$4$5")).toBe(false);
  });
});
