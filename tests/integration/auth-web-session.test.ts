import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { handlers } from "@/lib/http/next-auth";
import { defineEndpoint, route } from "@/lib/http";
import { PEER_ADDRESS_HEADER } from "@/lib/http/client-ip";
import { POST as logoutRoute } from "@/app/api/v1/auth/logout/route";
import { GET as listSessions } from "@/app/api/v1/auth/sessions/route";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { registerAccount } from "../support/auth";

const whoAmI = route(defineEndpoint({ method: "GET", path: "/api/v1/test/whoami", summary: "t", tags: [], auth: "user" }), async ({ caller }) => caller);

/** Cookies as a browser would keep them between next-auth requests. */
class CookieJar {
  private cookies = new Map<string, string>();
  store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (/Max-Age=0/i.test(header) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  get(name: string) {
    return this.cookies.get(name);
  }
}

function authRequest(path: string, jar: CookieJar, init: { method?: string; form?: Record<string, string>; ip: string }) {
  const headers = new Headers({ cookie: jar.header(), [PEER_ADDRESS_HEADER]: init.ip, "user-agent": "WebTest/1.0" });
  let body: string | undefined;
  if (init.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(init.form).toString();
  }
  return new NextRequest(new URL(path, "http://localhost:3000"), { method: init.method ?? "GET", headers, body });
}

async function webSignIn(email: string, password: string, ip: string) {
  const jar = new CookieJar();
  const csrfResponse = await handlers.GET(authRequest("/api/auth/csrf", jar, { ip }));
  jar.store(csrfResponse);
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const response = await handlers.POST(authRequest("/api/auth/callback/credentials", jar, { method: "POST", ip, form: { csrfToken, email, password, callbackUrl: "/dashboard" } }));
  jar.store(response);
  return { jar, response, csrfToken };
}

describe("web sign-in (next-auth) shares the API's session model", () => {
  it("signs in through the same login service and the cookie authenticates API calls", async () => {
    const account = await registerAccount();
    const ip = nextTestIp();
    const { jar, response } = await webSignIn(account.email, account.password, ip);
    expect(response.status).toBe(302);
    const token = jar.get("authjs.session-token");
    expect(token).toBeTruthy();
    const me = await call(whoAmI, apiRequest("/api/v1/test/whoami", { headers: { cookie: `authjs.session-token=${token}` } }));
    expect(me.status).toBe(200);
    expect((await json<{ data: { userId: string; via: string } }>(me)).data).toMatchObject({ userId: account.id, via: "cookie" });

    // The web session is one of the account's sessions, listed by the API beside the registration's.
    const listed = await call(listSessions, apiRequest("/api/v1/auth/sessions", { headers: { cookie: `authjs.session-token=${token}` } }));
    const sessions = (await json<{ data: { current: boolean; userAgent: string | null }[] }>(listed)).data;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toEqual([expect.objectContaining({ userAgent: "WebTest/1.0" })]);
  });

  it("refuses a wrong password without a session cookie", async () => {
    const account = await registerAccount();
    const { jar, response } = await webSignIn(account.email, "Wrong-passw0rd", nextTestIp());
    expect(jar.get("authjs.session-token")).toBeUndefined();
    expect(response.headers.get("location") ?? "").toContain("error=CredentialsSignin");
  });

  it("ends the web session when the API logs it out, and the API session when the web signs out", async () => {
    const account = await registerAccount();
    const ip = nextTestIp();
    const web = await webSignIn(account.email, account.password, ip);
    const cookie = `authjs.session-token=${web.jar.get("authjs.session-token")}`;
    const out = await call(logoutRoute, apiRequest("/api/v1/auth/logout", { method: "POST", headers: { cookie, origin: "http://localhost:3000" } }));
    expect(out.status).toBe(200);
    expect((await call(whoAmI, apiRequest("/api/v1/test/whoami", { headers: { cookie } }))).status).toBe(401);
    const session = await handlers.GET(authRequest("/api/auth/session", web.jar, { ip }));
    expect(await session.json()).toBeNull();

    const again = await webSignIn(account.email, account.password, ip);
    const cookie2 = `authjs.session-token=${again.jar.get("authjs.session-token")}`;
    expect((await call(whoAmI, apiRequest("/api/v1/test/whoami", { headers: { cookie: cookie2 } }))).status).toBe(200);
    const signOut = await handlers.POST(authRequest("/api/auth/signout", again.jar, { method: "POST", ip, form: { csrfToken: again.csrfToken } }));
    expect(signOut.status).toBe(302);
    expect((await call(whoAmI, apiRequest("/api/v1/test/whoami", { headers: { cookie: cookie2 } }))).status).toBe(401);
  });
});
