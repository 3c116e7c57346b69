import { describe, expect, it } from "vitest";
import { generate } from "otplib";
import { decryptSecret, encryptSecret, newTotpSecret, TOTP_PERIOD_SECONDS, totpUri, verifyTotp } from "@/lib/auth/totp";

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", in base32.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

/** A fixed instant 7 s into time step `STEP`. */
const STEP = 56_666_667;
const NOW = new Date((STEP * TOTP_PERIOD_SECONDS + 7) * 1000);

const codeAt = (step: number, secret = RFC_SECRET) => generate({ secret, epoch: step * TOTP_PERIOD_SECONDS, period: TOTP_PERIOD_SECONDS, digits: 6, algorithm: "sha1" });

describe("verifyTotp", () => {
  it("matches the RFC 6238 SHA-1 test vectors (last 6 digits) and returns the time step", async () => {
    const vectors: [number, string][] = [
      [59, "287082"],
      [1_111_111_109, "081804"],
      [1_234_567_890, "005924"],
      [2_000_000_000, "279037"],
    ];
    for (const [seconds, code] of vectors) {
      expect(await verifyTotp(RFC_SECRET, code, { now: new Date(seconds * 1000) })).toBe(Math.floor(seconds / 30));
    }
  });

  it("accepts the previous, current and next step and refuses two steps away", async () => {
    for (const offset of [-1, 0, 1]) {
      expect(await verifyTotp(RFC_SECRET, await codeAt(STEP + offset), { now: NOW })).toBe(STEP + offset);
    }
    for (const offset of [-2, 2, -10, 10]) {
      expect(await verifyTotp(RFC_SECRET, await codeAt(STEP + offset), { now: NOW })).toBeNull();
    }
  });

  it("refuses a code whose step is at or before lastTimeStep (a code is accepted once)", async () => {
    const current = await codeAt(STEP);
    expect(await verifyTotp(RFC_SECRET, current, { now: NOW, lastTimeStep: STEP - 1 })).toBe(STEP);
    expect(await verifyTotp(RFC_SECRET, current, { now: NOW, lastTimeStep: STEP })).toBeNull();
    expect(await verifyTotp(RFC_SECRET, await codeAt(STEP - 1), { now: NOW, lastTimeStep: STEP - 1 })).toBeNull();
    expect(await verifyTotp(RFC_SECRET, await codeAt(STEP - 1), { now: NOW, lastTimeStep: STEP })).toBeNull();
    // After the current step was used, the next step's code still works, once.
    expect(await verifyTotp(RFC_SECRET, await codeAt(STEP + 1), { now: NOW, lastTimeStep: STEP })).toBe(STEP + 1);
    expect(await verifyTotp(RFC_SECRET, await codeAt(STEP + 1), { now: NOW, lastTimeStep: STEP + 1 })).toBeNull();
    // A recorded step beyond the window (this clock is behind another instance's) refuses, never throws.
    expect(await verifyTotp(RFC_SECRET, current, { now: NOW, lastTimeStep: STEP + 5 })).toBeNull();
  });

  it("refuses anything but exactly six digits", async () => {
    const current = await codeAt(STEP);
    for (const code of ["", "12345", "1234567", `${current}0`, current.slice(1), "12a456", "abcdef", ` ${current}`, `${current.slice(0, 3)} ${current.slice(3)}`, "１２３４５６"]) {
      expect(await verifyTotp(RFC_SECRET, code, { now: NOW })).toBeNull();
    }
  });

  it("refuses a code made from another secret", async () => {
    const other = newTotpSecret();
    const code = await codeAt(STEP, other);
    const ours = await Promise.all([-1, 0, 1].map((offset) => codeAt(STEP + offset)));
    // Codes are 6 digits: skip the one-in-a-million collision rather than fail on it.
    if (!ours.includes(code)) expect(await verifyTotp(RFC_SECRET, code, { now: NOW })).toBeNull();
    expect(await verifyTotp(other, code, { now: NOW })).toBe(STEP);
  });
});

describe("TOTP secrets", () => {
  it("are 160-bit base32 secrets, different every time, in an otpauth URI with the issuer and account", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, "ada@example.com"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Tag Service:ada@example.com");
    expect(uri.searchParams.get("secret")).toBe(secret);
    expect(uri.searchParams.get("issuer")).toBe("Tag Service");
    // otplib leaves out parameters at their Key Uri Format defaults (SHA1, 6, 30), which is what we use.
    expect([null, "SHA1"]).toContain(uri.searchParams.get("algorithm"));
    expect([null, "6"]).toContain(uri.searchParams.get("digits"));
    expect([null, "30"]).toContain(uri.searchParams.get("period"));
  });

  it("round-trip through AES-256-GCM with a fresh IV each time", () => {
    const secret = newTotpSecret();
    const sealed = encryptSecret(secret);
    const again = encryptSecret(secret);
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toBe(again);
    expect(sealed.split(".")).toHaveLength(3);
    expect(decryptSecret(sealed)).toBe(secret);
    expect(decryptSecret(again)).toBe(secret);
  });

  it("refuse to decrypt when any part was tampered with or is missing", () => {
    const sealed = encryptSecret(newTotpSecret());
    const [iv, tag, ciphertext] = sealed.split(".") as [string, string, string];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, "base64url");
      bytes[0] = bytes[0]! ^ 0x01;
      return bytes.toString("base64url");
    };
    for (const forged of [`${flip(iv)}.${tag}.${ciphertext}`, `${iv}.${flip(tag)}.${ciphertext}`, `${iv}.${tag}.${flip(ciphertext)}`, `${iv}.${tag}`, "", "not-sealed"]) {
      expect(() => decryptSecret(forged)).toThrow();
    }
  });
});
