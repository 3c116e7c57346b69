import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { defineEndpoint, route } from "@/lib/http";
import { createApiKey } from "@/lib/services/auth/api-keys";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { bearer, registerAccount, setRole } from "../support/auth";

// An admin-only endpoint, declared and wrapped the way every real admin route is.
const adminEndpoint = defineEndpoint({ method: "GET", path: "/api/v1/test/admin-only", summary: "t", tags: [], auth: "admin" });
const adminOnly = route(adminEndpoint, async ({ caller, ctx }) => ({ caller, actor: ctx.actor }));
const adminPost = route({ ...adminEndpoint, method: "POST" }, async ({ caller }) => caller);

const ask = (headers: Record<string, string>) => call(adminOnly, apiRequest("/api/v1/test/admin-only", { ip: nextTestIp(), headers }));

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = await json<{ success: boolean; error: { code: string } }>(response);
  expect(body).toMatchObject({ success: false, error: { code } });
}

describe("auth: \"admin\" endpoints", () => {
  it("refuse anonymous callers and bad credentials with 401", async () => {
    await expectError(await ask({}), 401, "UNAUTHORIZED");
    await expectError(await ask(bearer("not.a.token")), 401, "UNAUTHORIZED");
    await expectError(await ask({ "x-api-key": "tag_test_0000000000000000000000000000000000000000" }), 401, "UNAUTHORIZED");
  });

  it("refuse a USER with 403 FORBIDDEN", async () => {
    const user = await registerAccount();
    await expectError(await ask(bearer(user.accessToken)), 403, "FORBIDDEN");
    await expectError(await ask({ cookie: user.cookie }), 403, "FORBIDDEN");
  });

  it("admit ADMIN and SUPER_ADMIN, with the role in the service context", async () => {
    for (const role of ["ADMIN", "SUPER_ADMIN"] as const) {
      const account = await registerAccount();
      await setRole(account.id, role);
      const response = await ask(bearer(account.accessToken));
      expect(response.status).toBe(200);
      const { data } = await json<{ data: { caller: Record<string, unknown>; actor: Record<string, unknown> } }>(response);
      expect(data.caller).toMatchObject({ kind: "user", userId: account.id, role, via: "bearer" });
      expect(data.actor).toMatchObject({ kind: "user", userId: account.id, role });
      expect((await ask({ cookie: account.cookie })).status).toBe(200);
    }
  });

  it("read the role on every request: a demoted admin is refused at once, with the same token", async () => {
    const account = await registerAccount();
    await setRole(account.id, "ADMIN");
    expect((await ask(bearer(account.accessToken))).status).toBe(200);
    await setRole(account.id, "USER");
    await expectError(await ask(bearer(account.accessToken)), 403, "FORBIDDEN");
  });

  it("refuse a suspended admin with 403, whatever the credential", async () => {
    const account = await registerAccount();
    await setRole(account.id, "SUPER_ADMIN");
    const { key } = await createApiKey({ actor: { kind: "user", userId: account.id, role: "SUPER_ADMIN", ip: "203.0.113.10" }, db: getDatabase().db }, { name: "ops" });
    expect((await ask({ "x-api-key": key })).status).toBe(200);
    await getDatabase().db.update(schema.users).set({ suspendedAt: new Date() }).where(eq(schema.users.id, account.id));
    for (const headers of [bearer(account.accessToken), { "x-api-key": key }, { cookie: account.cookie }]) {
      await expectError(await ask(headers), 403, "FORBIDDEN");
    }
  });

  it("keep the cross-site cookie check for unsafe methods", async () => {
    const account = await registerAccount();
    await setRole(account.id, "ADMIN");
    const post = (origin: string) => call(adminPost, apiRequest("/api/v1/test/admin-only", { method: "POST", ip: nextTestIp(), headers: { cookie: account.cookie, origin } }));
    await expectError(await post("https://evil.example"), 403, "FORBIDDEN");
    expect((await post("http://localhost:3000")).status).toBe(200);
  });
});
