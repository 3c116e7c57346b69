import { describe, expect, it } from "vitest";
import { CODE_LENGTH, formatTagCode, generateTagCode, newEncryptedId, normalizeTagCode, scanUrl } from "@/lib/services/tags/codes";
import { env } from "@/lib/env";

const CROCKFORD = /^[0-9ABCDEFGHJKMNPQRSTVWXYZ]+$/;

describe("tag codes", () => {
  it("generates 10 Crockford characters without I, L, O or U, well spread", () => {
    const codes = Array.from({ length: 2000 }, generateTagCode);
    for (const code of codes) {
      expect(code).toHaveLength(CODE_LENGTH);
      expect(code).toMatch(CROCKFORD);
    }
    expect(new Set(codes).size).toBe(codes.length);
    const seen = new Set(codes.join(""));
    expect(seen.size).toBe(32);
    for (const banned of ["I", "L", "O", "U"]) expect(seen.has(banned)).toBe(false);
  });

  it("formats as XXXXX-XXXXX", () => {
    expect(formatTagCode("7K3QXM9P2T")).toBe("7K3QX-M9P2T");
    expect(formatTagCode(generateTagCode())).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
  });

  it("normalizes case, hyphens and spaces", () => {
    expect(normalizeTagCode("7K3QX-M9P2T")).toBe("7K3QXM9P2T");
    expect(normalizeTagCode("7k3qx-m9p2t")).toBe("7K3QXM9P2T");
    expect(normalizeTagCode("7k3qxm9p2t")).toBe("7K3QXM9P2T");
    expect(normalizeTagCode(" 7K3QX m9p2t ")).toBe("7K3QXM9P2T");
    expect(normalizeTagCode("7K-3QX-M9-P2T")).toBe("7K3QXM9P2T");
  });

  it("reads the look-alikes O as 0 and I/L as 1, in either case", () => {
    expect(normalizeTagCode("OOOOO-IIIII")).toBe("0000011111");
    expect(normalizeTagCode("ooooo-lllll")).toBe("0000011111");
    expect(normalizeTagCode("A0BOC-1DIEL")).toBe("A0B0C1D1E1");
  });

  it("rejects wrong lengths and characters", () => {
    for (const input of ["", "-", "7K3QX-M9P2", "7K3QX-M9P2TT", "7K3QX-M9P2U", "7K3QX_M9P2T", "7K3QX-M9P2!", "7K3QX-M9P2É", "ÀK3QX-M9P2T", "7K3QX-M9Pß", "7K3QX-M9Pﬀ", "7K3QX-M9P2ı"]) {
      expect(normalizeTagCode(input), input).toBeNull();
    }
  });

  it("normalizes a formatted generated code back to itself", () => {
    for (let i = 0; i < 100; i += 1) {
      const code = generateTagCode();
      expect(normalizeTagCode(formatTagCode(code))).toBe(code);
      expect(normalizeTagCode(formatTagCode(code).toLowerCase())).toBe(code);
    }
  });
});

describe("encrypted ids and scan URLs", () => {
  it("are URL-safe, at least 128 random bits and unique", () => {
    const ids = Array.from({ length: 1000 }, newEncryptedId);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(id, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("builds APP_URL/t/<encryptedId>", () => {
    expect(scanUrl("abc_DEF-123")).toBe(`${env.APP_URL.replace(/\/+$/, "")}/t/abc_DEF-123`);
  });
});
