import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as listKeysRoute, POST as createKeyRoute } from "@/app/api/v1/auth/api-keys/route";
import { DELETE as revokeKeyRoute } from "@/app/api/v1/auth/api-keys/[id]/route";
import { DELETE as revokeOtherSessionsRoute, GET as listSessionsRoute } from "@/app/api/v1/auth/sessions/route";
import { DELETE as revokeSessionRoute } from "@/app/api/v1/auth/sessions/[id]/route";
import { randomBase62 } from "@/lib/auth/tokens";
import { defineEndpoint, route } from "@/lib/http";
import { apiRequest, call, json } from "../support/http";
import { bearer, registerAccount } from "../support/auth";

// A protected endpoint to present keys to (GET /auth/me may not exist yet).
const whoAmI = route(defineEndpoint({ method: "GET", path: "/api/v1/test/whoami", summary: "t", tags: [], auth: "user" }), async ({ caller }) => caller);
const ask = (headers: Record<string, string>) => call(whoAmI, apiRequest("/api/v1/test/whoami", { headers }));

type ErrorBody = { error: { code: string } };
interface CreatedKey {
  id: string;
  name: string;
  key: string;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
}
interface ListedKey {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

const createKey = (headers: Record<string, string>, body: unknown) => call(createKeyRoute, apiRequest("/api/v1/auth/api-keys", { method: "POST", headers, body }));
const listKeys = (headers: Record<string, string>) => call(listKeysRoute, apiRequest("/api/v1/auth/api-keys", { headers }));
const revokeKey = (headers: Record<string, string>, id: string) => call(revokeKeyRoute, apiRequest(`/api/v1/auth/api-keys/${id}`, { method: "DELETE", headers }), { id });

async function newKey(accessToken: string, body: Record<string, unknown> = { name: "CI deploys" }): Promise<CreatedKey> {
  const response = await createKey(bearer(accessToken), body);
  expect(response.status).toBe(201);
  return (await json<{ data: CreatedKey }>(response)).data;
}

async function listed(accessToken: string): Promise<ListedKey[]> {
  const response = await listKeys(bearer(accessToken));
  expect(response.status).toBe(200);
  return (await json<{ data: ListedKey[] }>(response)).data;
}

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect((await json<ErrorBody>(response)).error.code).toBe(code);
}

describe("creating and listing API keys", () => {
  it("creates a tag_dev_ key shown once, stored hashed, and lists it without the key", async () => {
    const account = await registerAccount();
    const before = Date.now();
    const created = await newKey(account.accessToken);
    expect(Object.keys(created).sort()).toEqual(["createdAt", "expiresAt", "id", "key", "name", "prefix"]);
    expect(created).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "CI deploys", prefix: "tag_dev_", expiresAt: null });
    expect(created.key).toMatch(/^tag_dev_[0-9A-Za-z]{32,}$/);
    expect(new Date(created.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1000);

    const [row] = await getDatabase().db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, created.id));
    expect(row!.keyHash).not.toContain(created.key.slice(8));
    expect(JSON.stringify(row)).not.toContain(created.key.slice(8));

    const keys = await listed(account.accessToken);
    expect(keys).toEqual([
      { id: created.id, name: "CI deploys", prefix: "tag_dev_", last4: created.key.slice(-4), createdAt: created.createdAt, lastUsedAt: null, expiresAt: null },
    ]);
    expect(JSON.stringify(keys)).not.toContain(created.key.slice(8));
  });

  it("keeps an expiry in the future and refuses one in the past or a missing name with 400", async () => {
    const account = await registerAccount();
    const expiresAt = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();
    const created = await newKey(account.accessToken, { name: "temporary", expiresAt });
    expect(created.expiresAt).toBe(expiresAt);
    expect((await listed(account.accessToken))[0]!.expiresAt).toBe(expiresAt);

    await expectError(await createKey(bearer(account.accessToken), { name: "old", expiresAt: new Date(Date.now() - 60_000).toISOString() }), 400, "VALIDATION_ERROR");
    await expectError(await createKey(bearer(account.accessToken), { expiresAt }), 400, "VALIDATION_ERROR");
    await expectError(await createKey(bearer(account.accessToken), { name: "  " }), 400, "VALIDATION_ERROR");
    await expectError(await createKey(bearer(account.accessToken), { name: "bad date", expiresAt: "next week" }), 400, "VALIDATION_ERROR");
    expect(await listed(account.accessToken)).toHaveLength(1);
  });

  it("lists only the caller's keys", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    const aliceKey = await newKey(alice.accessToken, { name: "alice" });
    await newKey(bob.accessToken, { name: "bob" });
    expect((await listed(alice.accessToken)).map((key) => key.id)).toEqual([aliceKey.id]);
  });
});

describe("authenticating with X-API-Key", () => {
  it("acts as its user and records lastUsedAt", async () => {
    const account = await registerAccount();
    const created = await newKey(account.accessToken);
    const response = await ask({ "X-API-Key": created.key });
    expect(response.status).toBe(200);
    expect((await json<{ data: Record<string, unknown> }>(response)).data).toMatchObject({ kind: "user", userId: account.id, via: "api-key", apiKeyId: created.id });
    const [key] = await listed(account.accessToken);
    expect(key!.lastUsedAt).not.toBeNull();
    expect(Math.abs(new Date(key!.lastUsedAt!).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("refuses malformed, unknown, revoked and expired keys with 401", async () => {
    const account = await registerAccount();
    const revoked = await newKey(account.accessToken, { name: "revoked" });
    const expired = await newKey(account.accessToken, { name: "expired", expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    expect((await ask({ "X-API-Key": expired.key })).status).toBe(200);
    expect((await revokeKey(bearer(account.accessToken), revoked.id)).status).toBe(200);
    await getDatabase().db.update(schema.apiKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(schema.apiKeys.id, expired.id));

    const candidates = [
      revoked.key,
      expired.key,
      "nonsense",
      "tag_dev_short",
      `tag_prod_${randomBase62(40)}`,
      `tag_dev_${randomBase62(40)}`, // well-formed, never issued
      `${revoked.key.slice(0, -1)}!`,
      account.accessToken,
    ];
    for (const key of candidates) await expectError(await ask({ "X-API-Key": key }), 401, "UNAUTHORIZED");
  });
});

describe("revoking API keys", () => {
  it("revokes the caller's key; another user's key or an unknown id is 404, a malformed id too", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    const aliceKey = await newKey(alice.accessToken, { name: "alice" });
    const bobKey = await newKey(bob.accessToken, { name: "bob" });

    await expectError(await revokeKey(bearer(alice.accessToken), bobKey.id), 404, "NOT_FOUND");
    expect((await ask({ "X-API-Key": bobKey.key })).status).toBe(200);
    await expectError(await revokeKey(bearer(alice.accessToken), randomUUID()), 404, "NOT_FOUND");
    await expectError(await revokeKey(bearer(alice.accessToken), "not-a-uuid"), 404, "NOT_FOUND");

    const revoked = await revokeKey(bearer(alice.accessToken), aliceKey.id);
    expect(revoked.status).toBe(200);
    expect((await json<{ data: { message: string } }>(revoked)).data.message).toEqual(expect.any(String));
    expect(await listed(alice.accessToken)).toEqual([]);
    await expectError(await ask({ "X-API-Key": aliceKey.key }), 401, "UNAUTHORIZED");
    await expectError(await revokeKey(bearer(alice.accessToken), aliceKey.id), 404, "NOT_FOUND");
  });
});

describe("what an API key may not do", () => {
  it("cannot create, list or revoke keys, nor list or revoke sessions (403); anonymous callers get 401", async () => {
    const account = await registerAccount();
    const created = await newKey(account.accessToken);
    const viaKey = { "X-API-Key": created.key };
    const sessionId = JSON.parse(Buffer.from(account.accessToken.split(".")[1]!, "base64url").toString()).sid as string;

    const attempts = (headers: Record<string, string>) => [
      () => createKey(headers, { name: "escalation" }),
      () => listKeys(headers),
      () => revokeKey(headers, created.id),
      () => call(listSessionsRoute, apiRequest("/api/v1/auth/sessions", { headers })),
      () => call(revokeOtherSessionsRoute, apiRequest("/api/v1/auth/sessions", { method: "DELETE", headers })),
      () => call(revokeSessionRoute, apiRequest(`/api/v1/auth/sessions/${sessionId}`, { method: "DELETE", headers }), { id: sessionId }),
    ];
    for (const attempt of attempts(viaKey)) await expectError(await attempt(), 403, "FORBIDDEN");
    for (const attempt of attempts({})) await expectError(await attempt(), 401, "UNAUTHORIZED");

    // Nothing happened: one key, still live, and the session still works.
    expect((await listed(account.accessToken)).map((key) => key.id)).toEqual([created.id]);
    expect((await ask(viaKey)).status).toBe(200);
    expect((await ask(bearer(account.accessToken))).status).toBe(200);
  });
});
