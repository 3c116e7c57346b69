import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { DELETE as deleteMeRoute, GET as meRoute, PATCH as updateMeRoute, POST as mePostRoute } from "@/app/api/v1/auth/me/route";
import { GET as exportRoute } from "@/app/api/v1/auth/me/export/route";
import { POST as refreshRoute } from "@/app/api/v1/auth/refresh/route";
import { prepareJobs, stopJobs } from "@/lib/jobs";
import { createApiKey } from "@/lib/services/auth/api-keys";
import { userSchema } from "@/lib/services/auth/schemas";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { bearer, loginAccount, registerAccount, type TestAccount } from "../support/auth";

type ErrorBody = { success: false; error: { code: string; message: string; details?: { fieldErrors: Record<string, string[]> } } };

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

const SAME_ORIGIN = { origin: "http://localhost:3000" };

const getMe = (headers: Record<string, string>) => call(meRoute, apiRequest("/api/v1/auth/me", { ip: nextTestIp(), headers }));
const patchMe = (headers: Record<string, string>, body: unknown) => call(updateMeRoute, apiRequest("/api/v1/auth/me", { method: "PATCH", ip: nextTestIp(), headers, body }));
const deleteMe = (headers: Record<string, string>, body?: unknown) => call(deleteMeRoute, apiRequest("/api/v1/auth/me", { method: "DELETE", ip: nextTestIp(), headers, body }));
const exportMe = (headers: Record<string, string>) => call(exportRoute, apiRequest("/api/v1/auth/me/export", { ip: nextTestIp(), headers }));

function userContext(account: TestAccount) {
  return { actor: { kind: "user" as const, userId: account.id, role: "USER" as const, ip: "203.0.113.10" }, db: getDatabase().db };
}

async function apiKeyFor(account: TestAccount): Promise<string> {
  return (await createApiKey(userContext(account), { name: "server" })).key;
}

async function expectError(response: Response, status: number, code: string): Promise<ErrorBody> {
  expect(response.status).toBe(status);
  const body = await json<ErrorBody>(response);
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  return body;
}

async function storedUser(id: string) {
  const [user] = await getDatabase().db.select().from(schema.users).where(eq(schema.users.id, id));
  return user;
}

describe("GET /auth/me", () => {
  it("returns the full User resource for a bearer token, a cookie and an API key", async () => {
    const account = await registerAccount({ firstName: "Grace", lastName: "Hopper" });
    const response = await getMe(bearer(account.accessToken));
    expect(response.status).toBe(200);
    const { data } = await json<{ data: Record<string, unknown> }>(response);
    expect(userSchema.strict().parse(data)).toEqual({
      id: account.id,
      email: account.email,
      firstName: "Grace",
      lastName: "Hopper",
      phone: null,
      role: "USER",
      emailVerified: false,
      twoFactorEnabled: false,
      subscription: "FREE",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(data).not.toHaveProperty("passwordHash");

    expect((await json(await getMe({ cookie: account.cookie })))).toEqual({ success: true, data });
    expect((await json(await getMe({ "x-api-key": await apiKeyFor(account) })))).toEqual({ success: true, data });
  });

  it("answers 401 without a credential or with a wrong one", async () => {
    const account = await registerAccount();
    await expectError(await getMe({}), 401, "UNAUTHORIZED");
    await expectError(await getMe(bearer(account.refreshToken)), 401, "UNAUTHORIZED");
    await expectError(await getMe({ "x-api-key": "tag_test_0000000000000000000000000000000000000000" }), 401, "UNAUTHORIZED");
    // A cookie that does not decode is no credential at all.
    await expectError(await getMe({ cookie: "authjs.session-token=garbage" }), 401, "UNAUTHORIZED");
  });
});

describe("PATCH /auth/me", () => {
  it("updates names and phone, returns { id, email, firstName, lastName, phone }, and null clears the phone", async () => {
    const account = await registerAccount();
    const response = await patchMe(bearer(account.accessToken), { firstName: "  Ada ", lastName: "King", phone: "+44 20 7946 0958" });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, data: { id: account.id, email: account.email, firstName: "Ada", lastName: "King", phone: "+44 20 7946 0958" } });

    const partial = await patchMe(bearer(account.accessToken), { lastName: "Byron" });
    expect((await json<{ data: unknown }>(partial)).data).toEqual({ id: account.id, email: account.email, firstName: "Ada", lastName: "Byron", phone: "+44 20 7946 0958" });

    const cleared = await patchMe(bearer(account.accessToken), { phone: null });
    expect((await json<{ data: { phone: unknown } }>(cleared)).data.phone).toBeNull();
    expect((await storedUser(account.id))?.phone).toBeNull();

    const empty = await patchMe(bearer(account.accessToken), {});
    expect(empty.status).toBe(200);
    expect((await json<{ data: unknown }>(empty)).data).toEqual({ id: account.id, email: account.email, firstName: "Ada", lastName: "Byron", phone: null });
  });

  it("ignores role, emailVerified, subscription, email and id in the body (no mass assignment)", async () => {
    const account = await registerAccount();
    const response = await patchMe(bearer(account.accessToken), {
      firstName: "Eve",
      role: "SUPER_ADMIN",
      emailVerified: true,
      subscription: "PREMIUM",
      twoFactorEnabled: true,
      email: "attacker@example.com",
      id: "00000000-0000-4000-8000-000000000000",
      passwordHash: "scrypt$1$1$1$x$y",
      suspendedAt: null,
    });
    expect(response.status).toBe(200);
    expect((await json<{ data: unknown }>(response)).data).toEqual({ id: account.id, email: account.email, firstName: "Eve", lastName: "Lovelace", phone: null });
    const stored = await storedUser(account.id);
    expect(stored).toMatchObject({ id: account.id, email: account.email, firstName: "Eve", role: "USER", emailVerified: false, subscription: "FREE", twoFactorEnabled: false });
    expect(stored!.passwordHash).toMatch(/^scrypt\$\d+\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect((await loginAccount(account.email, account.password)).status).toBe(200);
  });

  it("validates fields: blank or over-long names, a malformed phone and a wrong type are 400", async () => {
    const account = await registerAccount();
    for (const [body, field] of [
      [{ firstName: "" }, "firstName"],
      [{ lastName: "x".repeat(101) }, "lastName"],
      [{ phone: "call me maybe" }, "phone"],
      [{ phone: "1".repeat(31) }, "phone"],
      [{ firstName: 42 }, "firstName"],
    ] as const) {
      const invalid = await expectError(await patchMe(bearer(account.accessToken), body), 400, "VALIDATION_ERROR");
      expect(invalid.error.details?.fieldErrors[field]).toBeDefined();
    }
    const malformed = await call(updateMeRoute, apiRequest("/api/v1/auth/me", { method: "PATCH", headers: { ...bearer(account.accessToken), "content-type": "application/json" }, rawBody: "{not json" }));
    await expectError(malformed, 400, "VALIDATION_ERROR");
    expect((await storedUser(account.id))?.firstName).toBe("Ada");
  });

  it("needs a credential (401), accepts a same-origin cookie and refuses a cross-site one (403)", async () => {
    const account = await registerAccount();
    await expectError(await patchMe({}, { firstName: "Mallory" }), 401, "UNAUTHORIZED");
    await expectError(await patchMe({ cookie: account.cookie, origin: "https://evil.example" }, { firstName: "Mallory" }), 403, "FORBIDDEN");
    expect((await patchMe({ cookie: account.cookie, ...SAME_ORIGIN }, { firstName: "Cookie" })).status).toBe(200);
    expect((await storedUser(account.id))?.firstName).toBe("Cookie");
  });

  it("only ever changes the caller's own record", async () => {
    const alice = await registerAccount({ firstName: "Alice" });
    const bob = await registerAccount({ firstName: "Bob" });
    await patchMe(bearer(alice.accessToken), { firstName: "Alicia", id: bob.id });
    expect((await storedUser(alice.id))?.firstName).toBe("Alicia");
    expect((await storedUser(bob.id))?.firstName).toBe("Bob");
  });
});

describe("DELETE /auth/me", () => {
  it("deletes the account and everything it owns, clears the cookie, and the credentials stop working", async () => {
    const account = await registerAccount();
    const other = (await json<{ data: { accessToken: string } }>(await loginAccount(account.email, account.password))).data;
    const key = await apiKeyFor(account);
    const bystander = await registerAccount();

    const response = await deleteMe(bearer(account.accessToken), { currentPassword: account.password });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, data: { message: expect.any(String) } });
    expect(response.headers.get("set-cookie")).toMatch(/^authjs\.session-token=; .*Max-Age=0/);

    const db = getDatabase().db;
    expect(await storedUser(account.id)).toBeUndefined();
    expect(await db.select().from(schema.sessions).where(eq(schema.sessions.userId, account.id))).toEqual([]);
    expect(await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.userId, account.id))).toEqual([]);
    expect(await db.select().from(schema.userTokens).where(eq(schema.userTokens.userId, account.id))).toEqual([]);

    for (const headers of [bearer(account.accessToken), bearer(other.accessToken), { "x-api-key": key }, { cookie: account.cookie }]) {
      await expectError(await getMe(headers), 401, "UNAUTHORIZED");
    }
    expect((await call(refreshRoute, apiRequest("/api/v1/auth/refresh", { method: "POST", body: { refreshToken: account.refreshToken } }))).status).toBe(401);
    expect((await loginAccount(account.email, account.password)).status).toBe(401);

    // Nobody else is touched.
    expect((await getMe(bearer(bystander.accessToken))).status).toBe(200);
  });

  it("answers 401 for a wrong current password and 400 without one; the account stays", async () => {
    const account = await registerAccount();
    const wrong = await expectError(await deleteMe(bearer(account.accessToken), { currentPassword: "Wrong-passw0rd" }), 401, "UNAUTHORIZED");
    expect(wrong.error.message).toMatch(/current password/i);
    const missing = await expectError(await deleteMe(bearer(account.accessToken), {}), 400, "VALIDATION_ERROR");
    expect(missing.error.details?.fieldErrors.currentPassword).toBeDefined();
    await expectError(await deleteMe(bearer(account.accessToken)), 400, "VALIDATION_ERROR");
    expect(await storedUser(account.id)).toBeDefined();
    expect((await getMe(bearer(account.accessToken))).status).toBe(200);
  });

  it("refuses anonymous callers (401), API keys (403) and cross-site cookies (403)", async () => {
    const account = await registerAccount();
    const body = { currentPassword: account.password };
    await expectError(await deleteMe({}, body), 401, "UNAUTHORIZED");
    await expectError(await deleteMe(bearer("not.a.token"), body), 401, "UNAUTHORIZED");
    const byKey = await expectError(await deleteMe({ "x-api-key": await apiKeyFor(account) }, body), 403, "FORBIDDEN");
    expect(byKey.error.message).toMatch(/API key/);
    await expectError(await deleteMe({ cookie: account.cookie, origin: "https://evil.example" }, body), 403, "FORBIDDEN");
    expect(await storedUser(account.id)).toBeDefined();

    // The browser's own session may delete the account.
    const byCookie = await deleteMe({ cookie: account.cookie, ...SAME_ORIGIN }, body);
    expect(byCookie.status).toBe(200);
    expect(await storedUser(account.id)).toBeUndefined();
  });
});

describe("GET /auth/me/export", () => {
  it("returns the user, the required collections, sessions and API keys without secrets, and exportedAt", async () => {
    const account = await registerAccount();
    await loginAccount(account.email, account.password, { userAgent: "ExportAgent/1.0" });
    const { key, id: keyId } = await createApiKey(userContext(account), { name: "backup script" });

    const before = Date.now();
    const response = await exportMe(bearer(account.accessToken));
    expect(response.status).toBe(200);
    const text = await response.text();
    const { data } = JSON.parse(text) as { data: Record<string, unknown> & { sessions: Record<string, unknown>[]; apiKeys: Record<string, unknown>[]; exportedAt: string } };

    expect(Object.keys(data)).toEqual(expect.arrayContaining(["user", "tags", "orders", "messages", "notifications", "exportedAt", "sessions", "apiKeys"]));
    expect(data.user).toEqual((await json<{ data: unknown }>(await getMe(bearer(account.accessToken)))).data);
    expect(data).toMatchObject({ tags: [], orders: [], messages: [], notifications: [] });
    expect(new Date(data.exportedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(data.exportedAt).toMatch(/\.\d{3}Z$/);

    expect(data.sessions).toHaveLength(2);
    expect(data.sessions.map((session) => session.userAgent)).toContain("ExportAgent/1.0");
    expect(data.sessions[0]).toMatchObject({ id: expect.any(String), kind: "API", createdAt: expect.any(String), revokedAt: null });

    expect(data.apiKeys).toEqual([
      { id: keyId, name: "backup script", prefix: expect.stringMatching(/^tag_(live|test|dev)_$/), last4: key.slice(-4), createdAt: expect.any(String), lastUsedAt: null, expiresAt: null, revokedAt: null },
    ]);
    // Neither the key nor any stored hash leaves the server.
    expect(text).not.toContain(key);
    expect(text).not.toMatch(/keyHash|tokenHash|passwordHash|scrypt\$/);
  });

  it("exports only the caller's data", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    await createApiKey(userContext(bob), { name: "bob's key" });
    const { data } = await json<{ data: { user: { id: string }; apiKeys: unknown[]; sessions: { id: string }[] } }>(await exportMe(bearer(alice.accessToken)));
    expect(data.user.id).toBe(alice.id);
    expect(data.apiKeys).toEqual([]);
    expect(data.sessions).toHaveLength(1);
  });

  it("refuses anonymous callers (401) and API keys (403); a cookie may export", async () => {
    const account = await registerAccount();
    await expectError(await exportMe({}), 401, "UNAUTHORIZED");
    await expectError(await exportMe(bearer(account.refreshToken)), 401, "UNAUTHORIZED");
    await expectError(await exportMe({ "x-api-key": await apiKeyFor(account) }), 403, "FORBIDDEN");
    expect((await exportMe({ cookie: account.cookie })).status).toBe(200);
  });
});

describe("unsupported methods on /auth/me", () => {
  it("answer 405 in the error envelope with an Allow header", async () => {
    const account = await registerAccount();
    const response = await call(mePostRoute, apiRequest("/api/v1/auth/me", { method: "POST", ip: nextTestIp(), headers: bearer(account.accessToken) }));
    await expectError(response, 405, "METHOD_NOT_ALLOWED");
    expect(response.headers.get("allow")).toBe("GET, PATCH, DELETE, OPTIONS");
  });
});
