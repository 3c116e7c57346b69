import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SignJWT, UnsecuredJWT } from "jose";
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken, VERIFIED_TOKENS_KEPT, verifiedAccessTokensKept, verifyAccessToken } from "@/lib/auth/access-token";
import { derivedKey, hashToken, keyedHash, randomBase62, randomToken, safeEqual } from "@/lib/auth/tokens";

const ISSUED = new Date("2030-01-01T12:00:00.000Z");
const after = (minutes: number, seconds = 0) => new Date(ISSUED.getTime() + (minutes * 60 + seconds) * 1000);
const claims = { userId: randomUUID(), sessionId: randomUUID() };

describe("access tokens", () => {
  it("live for 15 minutes: valid at 14:59 after issue, refused at 15:01", async () => {
    expect(ACCESS_TOKEN_TTL_SECONDS).toBe(15 * 60);
    const token = await signAccessToken(claims, ISSUED);
    expect(await verifyAccessToken(token, ISSUED)).toEqual(claims);
    expect(await verifyAccessToken(token, after(14, 59))).toEqual(claims);
    expect(await verifyAccessToken(token, after(15, 1))).toBeNull();
    expect(await verifyAccessToken(token, after(60 * 24))).toBeNull();
  });

  it("carry sub and sid in an HS256 JWT", async () => {
    const token = await signAccessToken(claims, ISSUED);
    const [header, payload] = token.split(".").slice(0, 2).map((part) => JSON.parse(Buffer.from(part, "base64url").toString()));
    expect(header).toMatchObject({ alg: "HS256", typ: "JWT" });
    expect(payload).toMatchObject({ sub: claims.userId, sid: claims.sessionId, iat: ISSUED.getTime() / 1000, exp: ISSUED.getTime() / 1000 + 900 });
  });

  it("refuse a refresh token, random strings and tampered or foreign tokens", async () => {
    const token = await signAccessToken(claims, ISSUED);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), sub: randomUUID() })).toString("base64url");
    const iat = ISSUED.getTime() / 1000;
    const sign = (body: Record<string, unknown>, key: Uint8Array = derivedKey("access-token-hs256").export()) =>
      new SignJWT(body).setProtectedHeader({ alg: "HS256" }).setSubject(claims.userId).setIssuer("tag-service").setAudience("tag-service-api").setIssuedAt(iat).setExpirationTime(iat + 900).sign(key);

    const refused = [
      randomToken(32), // what POST /auth/refresh hands out
      "",
      "not-a-jwt",
      "a.b.c",
      `${header}.${forgedPayload}.${signature}`,
      `${header}.${payload}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`,
      new UnsecuredJWT({ sid: claims.sessionId, typ: "access" }).setSubject(claims.userId).setIssuer("tag-service").setAudience("tag-service-api").setIssuedAt(iat).setExpirationTime(iat + 900).encode(),
      await sign({ sid: claims.sessionId, typ: "access" }, derivedKey("some-other-purpose").export()),
      await sign({ sid: claims.sessionId, typ: "refresh" }),
      await sign({ typ: "access" }),
    ];
    for (const candidate of refused) expect(await verifyAccessToken(candidate, after(1))).toBeNull();
    // The same construction with the right key and claims is accepted, so the refusals above are for the stated reasons.
    expect(await verifyAccessToken(await sign({ sid: claims.sessionId, typ: "access" }), after(1))).toEqual(claims);
  });
});

describe("verified access tokens kept per instance", () => {
  it("still expire on time: the second the token's exp is reached it is refused, though it was verified before", async () => {
    const token = await signAccessToken({ userId: randomUUID(), sessionId: randomUUID() }, ISSUED);
    expect(await verifyAccessToken(token, after(1))).not.toBeNull();
    expect(await verifyAccessToken(token, after(14, 59))).not.toBeNull();
    expect(await verifyAccessToken(token, after(15, 0))).toBeNull();
    // A clock read before the expiry still finds it valid: the expiry is checked against each call's time.
    expect(await verifyAccessToken(token, after(2))).not.toBeNull();
  });

  it("are matched by their exact bytes: a tampered copy of a verified token is refused", async () => {
    const own = { userId: randomUUID(), sessionId: randomUUID() };
    const token = await signAccessToken(own, ISSUED);
    expect(await verifyAccessToken(token, after(1))).toEqual(own);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), sub: randomUUID() })).toString("base64url");
    for (const candidate of [`${header}.${forgedPayload}.${signature}`, `${header}.${payload}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`, `${token}.`, token.slice(0, -1)]) {
      expect(await verifyAccessToken(candidate, after(1))).toBeNull();
    }
    expect(await verifyAccessToken(token, after(1))).toEqual(own);
  });

  it("stay correct beyond the number kept: the earliest are verified again, not lost", async () => {
    const first = { userId: randomUUID(), sessionId: randomUUID() };
    const firstToken = await signAccessToken(first, ISSUED);
    expect(await verifyAccessToken(firstToken, after(1))).toEqual(first);
    for (let i = 0; i < VERIFIED_TOKENS_KEPT + 50; i++) {
      const more = await signAccessToken({ userId: randomUUID(), sessionId: randomUUID() }, ISSUED);
      expect(await verifyAccessToken(more, after(1))).not.toBeNull();
    }
    expect(verifiedAccessTokensKept()).toBe(VERIFIED_TOKENS_KEPT);
    expect(await verifyAccessToken(firstToken, after(1))).toEqual(first);
    expect(await verifyAccessToken(firstToken, after(16))).toBeNull();
    // Ten thousand signatures and checks: about 2 s alone, more on a busy machine.
  }, 30_000);
});

describe("token helpers", () => {
  it("randomToken gives 256-bit URL-safe strings; hashToken is a stable SHA-256", () => {
    const token = randomToken();
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(randomToken()).not.toBe(token);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).not.toBe(hashToken(`${token}x`));
  });

  it("randomBase62 gives the requested number of base62 characters", () => {
    for (const length of [1, 32, 40, 100]) expect(randomBase62(length)).toMatch(new RegExp(`^[0-9A-Za-z]{${length}}$`));
    const seen = new Set(randomBase62(6200));
    expect(seen.size).toBe(62);
  });

  it("derives distinct keys per purpose and keyed hashes that depend on the purpose", () => {
    expect(derivedKey("a").symmetricKeySize).toBe(32);
    expect(derivedKey("a").equals(derivedKey("a"))).toBe(true);
    expect(derivedKey("a").equals(derivedKey("b"))).toBe(false);
    expect(keyedHash("p", "v")).toBe(keyedHash("p", "v"));
    expect(keyedHash("p", "v")).not.toBe(keyedHash("q", "v"));
    expect(keyedHash("p", "v")).not.toBe(hashToken("v"));
  });

  it("safeEqual compares whole strings", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
  });
});
