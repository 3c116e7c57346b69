import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DELETE as revokeOtherSessionsRoute, GET as listSessionsRoute } from "@/app/api/v1/auth/sessions/route";
import { DELETE as revokeSessionRoute } from "@/app/api/v1/auth/sessions/[id]/route";
import { POST as refreshRoute } from "@/app/api/v1/auth/refresh/route";
import { defineEndpoint, route } from "@/lib/http";
import { apiRequest, call, json } from "../support/http";
import { bearer, loginAccount, registerAccount } from "../support/auth";

const whoAmI = route(defineEndpoint({ method: "GET", path: "/api/v1/test/whoami", summary: "t", tags: [], auth: "user" }), async ({ caller }) => caller);
const ask = (headers: Record<string, string>) => call(whoAmI, apiRequest("/api/v1/test/whoami", { headers }));

type ErrorBody = { error: { code: string } };
interface SessionView {
  id: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: string;
  lastUsedAt: string;
  current: boolean;
}
interface SignedIn {
  accessToken: string;
  refreshToken: string;
  sessionId: string;
}

const sessionIdOf = (accessToken: string) => JSON.parse(Buffer.from(accessToken.split(".")[1]!, "base64url").toString()).sid as string;

async function signIn(email: string, password: string, userAgent: string): Promise<SignedIn> {
  const response = await loginAccount(email, password, { userAgent });
  expect(response.status).toBe(200);
  const { accessToken, refreshToken } = (await json<{ data: { accessToken: string; refreshToken: string } }>(response)).data;
  return { accessToken, refreshToken, sessionId: sessionIdOf(accessToken) };
}

async function sessions(accessToken: string): Promise<SessionView[]> {
  const response = await call(listSessionsRoute, apiRequest("/api/v1/auth/sessions", { headers: bearer(accessToken) }));
  expect(response.status).toBe(200);
  return (await json<{ data: SessionView[] }>(response)).data;
}

const revoke = (accessToken: string, id: string) => call(revokeSessionRoute, apiRequest(`/api/v1/auth/sessions/${id}`, { method: "DELETE", headers: bearer(accessToken) }), { id });
const revokeOthers = (accessToken: string) => call(revokeOtherSessionsRoute, apiRequest("/api/v1/auth/sessions", { method: "DELETE", headers: bearer(accessToken) }));
const refresh = (refreshToken: string) => call(refreshRoute, apiRequest("/api/v1/auth/refresh", { method: "POST", body: { refreshToken } }));

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect((await json<ErrorBody>(response)).error.code).toBe(code);
}

describe("GET /auth/sessions", () => {
  it("lists every live session with its user agent and masked IP, exactly one of them current", async () => {
    const account = await registerAccount();
    const laptop = await signIn(account.email, account.password, "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0");
    const phone = await signIn(account.email, account.password, "TagApp/2.1 (iPhone; iOS 19)");

    const list = await sessions(laptop.accessToken);
    expect(list).toHaveLength(3); // registration signs in too
    expect(list.map((session) => session.id).sort()).toEqual([sessionIdOf(account.accessToken), laptop.sessionId, phone.sessionId].sort());
    expect(list.filter((session) => session.current).map((session) => session.id)).toEqual([laptop.sessionId]);
    for (const session of list) {
      expect(Object.keys(session).sort()).toEqual(["createdAt", "current", "id", "ipAddress", "lastUsedAt", "userAgent"]);
      // Test clients come from 198.51.x.y; only the /24 is kept.
      expect(session.ipAddress).toMatch(/^198\.51\.\d{1,3}\.0$/);
      expect(new Date(session.createdAt).toISOString()).toBe(session.createdAt);
      expect(new Date(session.lastUsedAt).toISOString()).toBe(session.lastUsedAt);
    }
    const byId = new Map(list.map((session) => [session.id, session]));
    expect(byId.get(laptop.sessionId)!.userAgent).toBe("Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0");
    expect(byId.get(phone.sessionId)!.userAgent).toBe("TagApp/2.1 (iPhone; iOS 19)");

    // Seen from the phone, the phone is current.
    expect((await sessions(phone.accessToken)).filter((session) => session.current).map((session) => session.id)).toEqual([phone.sessionId]);
    // Another user's sessions never show.
    const other = await registerAccount();
    expect((await sessions(other.accessToken)).map((session) => session.id)).toEqual([sessionIdOf(other.accessToken)]);
  });
});

describe("DELETE /auth/sessions/:id", () => {
  it("ends another session at once: its access token and refresh token are refused", async () => {
    const account = await registerAccount();
    const laptop = await signIn(account.email, account.password, "Laptop");
    const phone = await signIn(account.email, account.password, "Phone");
    expect((await ask(bearer(phone.accessToken))).status).toBe(200);

    const response = await revoke(laptop.accessToken, phone.sessionId);
    expect(response.status).toBe(200);
    expect((await json<{ data: { message: string } }>(response)).data.message).toEqual(expect.any(String));
    await expectError(await ask(bearer(phone.accessToken)), 401, "UNAUTHORIZED");
    expect((await refresh(phone.refreshToken)).status).toBe(401);
    expect((await sessions(laptop.accessToken)).map((session) => session.id)).not.toContain(phone.sessionId);
    expect((await ask(bearer(laptop.accessToken))).status).toBe(200);

    // Already revoked: as if it did not exist.
    await expectError(await revoke(laptop.accessToken, phone.sessionId), 404, "NOT_FOUND");
  });

  it("answers 404 for another user's session, an unknown id and a malformed id, and leaves them alone", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    const bobSession = sessionIdOf(bob.accessToken);
    await expectError(await revoke(alice.accessToken, bobSession), 404, "NOT_FOUND");
    expect((await ask(bearer(bob.accessToken))).status).toBe(200);
    await expectError(await revoke(alice.accessToken, randomUUID()), 404, "NOT_FOUND");
    await expectError(await revoke(alice.accessToken, "123"), 404, "NOT_FOUND");
  });
});

describe("DELETE /auth/sessions", () => {
  it("ends every session but the current one, the cookie session included", async () => {
    const account = await registerAccount();
    const laptop = await signIn(account.email, account.password, "Laptop");
    const phone = await signIn(account.email, account.password, "Phone");
    const tablet = await signIn(account.email, account.password, "Tablet");
    expect((await ask({ cookie: account.cookie })).status).toBe(200);

    const response = await revokeOthers(laptop.accessToken);
    expect(response.status).toBe(200);
    expect((await json<{ data: { message: string; count: number } }>(response)).data).toEqual({ message: expect.any(String), count: 3 });

    for (const token of [account.accessToken, phone.accessToken, tablet.accessToken]) await expectError(await ask(bearer(token)), 401, "UNAUTHORIZED");
    expect((await ask({ cookie: account.cookie })).status).toBe(401);
    expect((await refresh(phone.refreshToken)).status).toBe(401);
    expect((await ask(bearer(laptop.accessToken))).status).toBe(200);
    const list = await sessions(laptop.accessToken);
    expect(list.map((session) => [session.id, session.current])).toEqual([[laptop.sessionId, true]]);

    // Nothing left to revoke.
    expect((await json<{ data: { count: number } }>(await revokeOthers(laptop.accessToken))).data.count).toBe(0);
  });

  it("does not touch other users' sessions", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    expect((await json<{ data: { count: number } }>(await revokeOthers(alice.accessToken))).data.count).toBe(0);
    expect((await ask(bearer(bob.accessToken))).status).toBe(200);
  });
});
