import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { POST as refreshRoute } from "@/app/api/v1/auth/refresh/route";
import { POST as logoutRoute } from "@/app/api/v1/auth/logout/route";
import { POST as registerRoute } from "@/app/api/v1/auth/register/route";
import { defineEndpoint, route } from "@/lib/http";
import { signAccessToken } from "@/lib/auth/access-token";
import { apiRequest, call, json, nextTestIp, awayFromWindowEdge } from "../support/http";
import { bearer, loginAccount, registerAccount, TEST_PASSWORD, uniqueEmail } from "../support/auth";

// A protected endpoint to present credentials to.
const whoAmI = route(defineEndpoint({ method: "GET", path: "/api/v1/test/whoami", summary: "t", tags: [], auth: "user" }), async ({ caller }) => caller);
const whoAmIPost = route(defineEndpoint({ method: "POST", path: "/api/v1/test/whoami", summary: "t", tags: [], auth: "user" }), async ({ caller }) => caller);

const ask = (headers: Record<string, string>) => call(whoAmI, apiRequest("/api/v1/test/whoami", { headers }));

describe("POST /auth/register", () => {
  it("creates an unverified USER, answers 201 with tokens and sets the httpOnly cookie", async () => {
    const email = uniqueEmail("reg");
    const response = await call(
      registerRoute,
      apiRequest("/api/v1/auth/register", { method: "POST", ip: nextTestIp(), body: { email: email.toUpperCase(), password: TEST_PASSWORD, firstName: "Grace", lastName: "Hopper", role: "ADMIN", emailVerified: true, subscription: "PREMIUM" } }),
    );
    expect(response.status).toBe(201);
    const { data } = await json<{ data: { user: Record<string, unknown>; accessToken: string; refreshToken: string } }>(response);
    expect(data.user).toEqual({ id: expect.any(String), email, firstName: "Grace", lastName: "Hopper", emailVerified: false });
    expect(data.accessToken.split(".")).toHaveLength(3);
    expect(data.refreshToken.length).toBeGreaterThanOrEqual(43);
    const cookie = response.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^authjs\.session-token=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800$/);
    const [stored] = await getDatabase().db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(stored).toMatchObject({ role: "USER", emailVerified: false, subscription: "FREE" });
    expect(stored!.passwordHash).toMatch(/^scrypt\$/);
  });

  it("refuses a taken e-mail with 409 and weak passwords per rule", async () => {
    const account = await registerAccount();
    const taken = await call(registerRoute, apiRequest("/api/v1/auth/register", { method: "POST", ip: nextTestIp(), body: { email: account.email, password: TEST_PASSWORD, firstName: "A", lastName: "B" } }));
    expect(taken.status).toBe(409);
    expect((await json<{ error: { code: string } }>(taken)).error.code).toBe("CONFLICT");
    for (const [password, message] of [["Sh0rt", "at least 8"], ["alllowercase1", "uppercase"], ["ALLUPPERCASE1", "lowercase"], ["NoNumbersHere", "number"]]) {
      const weak = await call(registerRoute, apiRequest("/api/v1/auth/register", { method: "POST", ip: nextTestIp(), body: { email: uniqueEmail(), password, firstName: "A", lastName: "B" } }));
      expect(weak.status).toBe(400);
      const { error } = await json<{ error: { details: { fieldErrors: Record<string, string[]> } } }>(weak);
      expect(error.details.fieldErrors.password?.join(" ")).toContain(message);
    }
  });
});

describe("POST /auth/login", () => {
  it("answers wrong e-mail and wrong password alike with 401", async () => {
    const account = await registerAccount();
    const wrongPassword = await loginAccount(account.email, "Wrong-passw0rd");
    const wrongEmail = await loginAccount(uniqueEmail("nobody"), TEST_PASSWORD);
    expect(wrongPassword.status).toBe(401);
    expect(wrongEmail.status).toBe(401);
    expect(await json(wrongPassword)).toEqual(await json(wrongEmail));
  });

  it("signs in with tokens and a cookie, and locks an account after 10 failures from any IP", async () => {
    await awayFromWindowEdge(15 * 60_000, 60_000);
    const account = await registerAccount();
    const ok = await loginAccount(account.email.toUpperCase(), account.password, { userAgent: "TestAgent/1.0" });
    expect(ok.status).toBe(200);
    const { data } = await json<{ data: { user: Record<string, unknown>; accessToken: string } }>(ok);
    expect(data.user).toEqual({ id: account.id, email: account.email, firstName: "Ada", lastName: "Lovelace", role: "USER", twoFactorEnabled: false });
    expect(ok.headers.get("set-cookie")).toContain("HttpOnly");
    expect((await ask(bearer(data.accessToken))).status).toBe(200);

    for (let i = 0; i < 10; i++) expect((await loginAccount(account.email, "Wrong-passw0rd")).status).toBe(401);
    const locked = await loginAccount(account.email, account.password);
    expect(locked.status).toBe(429);
    expect((await json<{ error: { code: string } }>(locked)).error.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
  });
});

describe("bearer, refresh and logout", () => {
  it("accepts a live access token and refuses missing, tampered, expired and refresh-as-access credentials", async () => {
    const account = await registerAccount();
    const ok = await ask(bearer(account.accessToken));
    expect(ok.status).toBe(200);
    expect((await json<{ data: { userId: string; via: string } }>(ok)).data).toMatchObject({ userId: account.id, via: "bearer" });

    const [header, payload, signature] = account.accessToken.split(".");
    const tampered = `${header}.${payload}.${signature!.slice(0, -2)}${signature!.endsWith("AA") ? "BB" : "AA"}`;
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const expired = await signAccessToken({ userId: account.id, sessionId: claims.sid }, new Date(Date.now() - 16 * 60 * 1000));
    for (const headers of [{}, bearer(tampered), bearer(expired), bearer(account.refreshToken), { Authorization: `Basic ${account.accessToken}` }]) {
      const response = await ask(headers);
      expect(response.status).toBe(401);
      expect((await json<{ error: { code: string } }>(response)).error.code).toBe("UNAUTHORIZED");
    }
  });

  it("rotates refresh tokens and treats reuse as theft: the whole session ends", async () => {
    const account = await registerAccount();
    const refresh = (refreshToken: string) => call(refreshRoute, apiRequest("/api/v1/auth/refresh", { method: "POST", body: { refreshToken } }));
    const first = await refresh(account.refreshToken);
    expect(first.status).toBe(200);
    const rotated = (await json<{ data: { accessToken: string; refreshToken: string } }>(first)).data;
    expect(rotated.refreshToken).not.toBe(account.refreshToken);
    expect((await ask(bearer(rotated.accessToken))).status).toBe(200);

    const reused = await refresh(account.refreshToken);
    expect(reused.status).toBe(401);
    // The session is gone: the newest tokens stop working too.
    expect((await refresh(rotated.refreshToken)).status).toBe(401);
    expect((await ask(bearer(rotated.accessToken))).status).toBe(401);
    expect((await refresh("not-a-token")).status).toBe(401);
  });

  it("logout ends the session at once for the access token, refresh token and cookie", async () => {
    const account = await registerAccount();
    expect((await ask({ cookie: account.cookie })).status).toBe(200);
    const out = await call(logoutRoute, apiRequest("/api/v1/auth/logout", { method: "POST", headers: bearer(account.accessToken) }));
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    expect((await ask(bearer(account.accessToken))).status).toBe(401);
    expect((await call(refreshRoute, apiRequest("/api/v1/auth/refresh", { method: "POST", body: { refreshToken: account.refreshToken } }))).status).toBe(401);
    const cookieAfter = await ask({ cookie: account.cookie });
    expect(cookieAfter.status).toBe(401);
  });
});

describe("cookie sessions", () => {
  it("accept same-origin unsafe requests and refuse cross-origin ones with 403", async () => {
    const account = await registerAccount();
    const post = (origin?: string) => call(whoAmIPost, apiRequest("/api/v1/test/whoami", { method: "POST", headers: { cookie: account.cookie, ...(origin ? { origin } : {}) } }));
    const same = await post("http://localhost:3000");
    expect(same.status).toBe(200);
    expect((await json<{ data: { via: string } }>(same)).data.via).toBe("cookie");
    for (const origin of ["https://evil.example", undefined]) {
      const response = await post(origin);
      expect(response.status).toBe(403);
      expect((await json<{ error: { code: string } }>(response)).error.code).toBe("FORBIDDEN");
    }
  });

  it("refuses a suspended user's credentials with 403", async () => {
    const account = await registerAccount();
    await getDatabase().db.update(schema.users).set({ suspendedAt: new Date() }).where(eq(schema.users.id, account.id));
    const response = await ask(bearer(account.accessToken));
    expect(response.status).toBe(403);
    expect((await loginAccount(account.email, account.password)).status).toBe(403);
  });
});

describe("auth rate limits on the real routes", () => {
  it("allows 5 registrations per hour per IP, then 429 with Retry-After", async () => {
    await awayFromWindowEdge(60 * 60_000, 60_000);
    const ip = nextTestIp();
    const attempt = () => call(registerRoute, apiRequest("/api/v1/auth/register", { method: "POST", ip, body: { email: uniqueEmail("limit"), password: TEST_PASSWORD, firstName: "A", lastName: "B" } }));
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(201);
    const blocked = await attempt();
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("X-RateLimit-Limit")).toBe("5");
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(60);
  });

  it("allows 3 password-reset requests per hour per IP", async () => {
    await awayFromWindowEdge(60 * 60_000, 60_000);
    const { POST: forgot } = await import("@/app/api/v1/auth/forgot-password/route");
    const ip = nextTestIp();
    const attempt = () => call(forgot, apiRequest("/api/v1/auth/forgot-password", { method: "POST", ip, body: { email: uniqueEmail("reset") } }));
    for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(200);
    expect((await attempt()).status).toBe(429);
  });

  it("allows 10 login attempts per minute per IP across accounts", async () => {
    await awayFromWindowEdge(60_000, 20_000);
    const { POST: loginRoute } = await import("@/app/api/v1/auth/login/route");
    const ip = nextTestIp();
    const attempt = () => call(loginRoute, apiRequest("/api/v1/auth/login", { method: "POST", ip, body: { email: uniqueEmail("nobody"), password: "Whatever1" } }));
    for (let i = 0; i < 10; i++) expect((await attempt()).status).toBe(401);
    const blocked = await attempt();
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("X-RateLimit-Limit")).toBe("10");
  });
});
