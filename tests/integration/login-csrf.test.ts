import { describe, expect, it } from "vitest";
import { POST as loginRoute } from "@/app/api/v1/auth/login/route";
import { POST as registerRoute } from "@/app/api/v1/auth/register/route";
import { GET as meGet, PATCH as mePatch } from "@/app/api/v1/auth/me/route";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { bearer, registerAccount, TEST_PASSWORD, uniqueEmail } from "../support/auth";

const APP_ORIGIN = "http://localhost:3000";
type Envelope = { success: boolean; data?: { accessToken?: string }; error?: { code: string; details?: { fieldErrors: Record<string, string[]> } } };

function login(body: string, headers: Record<string, string>) {
  return call(loginRoute, apiRequest("/api/v1/auth/login", { method: "POST", rawBody: body, headers, ip: nextTestIp() }));
}

describe("login CSRF: a foreign page cannot sign a browser into another account", () => {
  it("refuses a JSON body sent as text/plain (what a plain HTML form can post) with 415 and no cookie", async () => {
    const account = await registerAccount();
    const body = JSON.stringify({ email: account.email, password: account.password });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const response = await login(body, { "content-type": type, origin: "https://evil.example" });
      expect(response.status, type).toBe(415);
      expect(await json<Envelope>(response)).toMatchObject({ success: false, error: { code: "UNSUPPORTED_MEDIA_TYPE" } });
      expect(response.headers.get("set-cookie"), type).toBeNull();
      expect(response.headers.get("x-ratelimit-limit")).toBeTruthy();
    }
    // Without a content type at all a body is not JSON either.
    expect((await login(body, {})).status).toBe(415);
  });

  it("gives tokens but never the session cookie to a request whose Origin is another site", async () => {
    const account = await registerAccount();
    const body = JSON.stringify({ email: account.email, password: account.password });
    const foreignHeaders: Record<string, string>[] = [{ origin: "https://evil.example" }, { origin: "null" }, { origin: APP_ORIGIN, "sec-fetch-site": "cross-site" }];
    for (const headers of foreignHeaders) {
      const response = await login(body, { "content-type": "application/json", ...headers });
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect((await json<Envelope>(response)).data?.accessToken).toBeTruthy();
      expect(response.headers.get("set-cookie"), JSON.stringify(headers)).toBeNull();
    }
  });

  it("sets the cookie for our own pages and for callers that are not browsers (no Origin)", async () => {
    const account = await registerAccount();
    const body = JSON.stringify({ email: account.email, password: account.password });
    const ownHeaders: Record<string, string>[] = [{ origin: APP_ORIGIN, "sec-fetch-site": "same-origin" }, {}];
    for (const headers of ownHeaders) {
      const response = await login(body, { "content-type": "application/json; charset=utf-8", ...headers });
      expect(response.status).toBe(200);
      expect(response.headers.get("set-cookie")).toMatch(/^authjs\.session-token=.+HttpOnly/);
    }
  });

  it("registers from another site without setting the cookie", async () => {
    const body = { email: uniqueEmail(), password: TEST_PASSWORD, firstName: "Eve", lastName: "Example" };
    const foreign = await call(registerRoute, apiRequest("/api/v1/auth/register", { method: "POST", body, headers: { origin: "https://evil.example" }, ip: nextTestIp() }));
    expect(foreign.status).toBe(201);
    expect(foreign.headers.get("set-cookie")).toBeNull();
    const own = await call(registerRoute, apiRequest("/api/v1/auth/register", { method: "POST", body: { ...body, email: uniqueEmail() }, headers: { origin: APP_ORIGIN }, ip: nextTestIp() }));
    expect(own.headers.get("set-cookie")).toMatch(/^authjs\.session-token=/);
  });
});

describe("control characters in strings", () => {
  it("refuses a NUL in PATCH /auth/me firstName with 400 naming the field, and stores nothing", async () => {
    const account = await registerAccount();
    const response = await call(mePatch, apiRequest("/api/v1/auth/me", { method: "PATCH", body: { firstName: "a\u0000b", lastName: "Ok" }, headers: bearer(account.accessToken) }));
    expect(response.status).toBe(400);
    const { error } = await json<Envelope>(response);
    expect(error?.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(error!.details!.fieldErrors)).toEqual(["firstName"]);
    const me = await json<{ data: { firstName: string; lastName: string } }>(await call(meGet, apiRequest("/api/v1/auth/me", { headers: bearer(account.accessToken) })));
    expect(me.data).toMatchObject({ firstName: "Ada", lastName: "Lovelace" });
  });

  it("refuses a NUL in the login e-mail with 400, and names it beside other bad fields", async () => {
    const nul = await login(JSON.stringify({ email: "a\u0000b@example.com", password: "x" }), { "content-type": "application/json" });
    expect(nul.status).toBe(400);
    expect(Object.keys((await json<Envelope>(nul)).error!.details!.fieldErrors)).toEqual(["email"]);
    const both = await login(JSON.stringify({ email: "ada\u0007@example.com" }), { "content-type": "application/json" });
    expect(Object.keys((await json<Envelope>(both)).error!.details!.fieldErrors).sort()).toEqual(["email", "password"]);
  });

  it("keeps tab, newline and carriage return, which multi-line text needs", async () => {
    const account = await registerAccount();
    const response = await call(mePatch, apiRequest("/api/v1/auth/me", { method: "PATCH", body: { firstName: "Ada\tB" }, headers: bearer(account.accessToken) }));
    expect(response.status).toBe(200);
  });
});
