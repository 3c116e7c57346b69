import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as dynamicRoute from "@/app/api/v1/scan/[encryptedId]/route";
import * as staticRoute from "@/app/api/v1/scan/view/route";
import * as finderPageRoute from "@/app/(finder)/t/[encryptedId]/route";
import * as finderPageStandIn from "@/app/(finder)/t/view/route";
import { getDatabase, schema } from "@/db/client";
import { ROUTE_PARAM_HEADER, STATIC_FINDER_PAGE_ROUTE, STATIC_SCAN_ROUTE } from "@/lib/http/incoming-requests";
import { registerAccount } from "../support/auth";
import { apiRequest, call, nextTestIp } from "../support/http";
import { giveTestTag, tagRow } from "../support/tags";
import { USER_AGENTS as UA } from "../support/user-agents";

/**
 * The static routes of the scan (app/api/v1/scan/view) and the finder's page (app/(finder)/t/view): the
 * server's request hook sends a GET or HEAD of /api/v1/scan/<id> or /t/<id> there with the id in
 * ROUTE_PARAM_HEADER (tests/unit/incoming-requests.test.ts). Whatever reaches one must be answered exactly as
 * the dynamic route answers the address the client asked for.
 */

type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/** The route file's handler for `method`: Next answers HEAD with GET's (the request keeps its method). */
const handlerOf = (route: typeof dynamicRoute, method: Method) => route[method === "HEAD" ? "GET" : method];

/** The address a client asked for, answered by the dynamic route as Next routes it. */
function viaDynamicRoute(method: Method, encryptedId: string, ip: string): Promise<Response> {
  return call(handlerOf(dynamicRoute, method), apiRequest(`/api/v1/scan/${encryptedId}`, { method, ip, headers: { "user-agent": UA.iphoneSafari } }), { encryptedId });
}

/** The same address after the request hook: the static route, the id stamped beside it (or not, for STATIC_SCAN_ROUTE itself). */
function viaStaticRoute(method: Method, stampedId: string | undefined, ip: string): Promise<Response> {
  const headers: Record<string, string> = { "user-agent": UA.iphoneSafari, ...(stampedId === undefined ? {} : { [ROUTE_PARAM_HEADER]: stampedId }) };
  return call(handlerOf(staticRoute, method), apiRequest(STATIC_SCAN_ROUTE, { method, ip, headers }));
}

/** What must be equal: status, body, and the headers with their values (but the request's own id). */
async function answer(response: Response) {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== "x-request-id"));
  return { status: response.status, headers, body: await response.text() };
}

const scansOf = (tagId: string) => getDatabase().db.select().from(schema.scans).where(eq(schema.scans.tagId, tagId));

describe("the scan's static route", () => {
  it("answers a scan as the dynamic route does, and records it the same way", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { itemName: "Rex" });
    // One client each, so both are the client's first (REAL) scan and see the same rate-limit count.
    const dynamic = await answer(await viaDynamicRoute("GET", tag.encryptedId, nextTestIp()));
    const fixed = await answer(await viaStaticRoute("GET", tag.encryptedId, nextTestIp()));
    expect(dynamic.status, dynamic.body).toBe(200);
    expect(fixed).toEqual(dynamic);
    expect(JSON.parse(fixed.body)).toMatchObject({ success: true, data: { encryptedId: tag.encryptedId, itemName: "Rex" } });
    expect((await tagRow(tag.id))!.scanCount).toBe(2);
    expect((await scansOf(tag.id)).map((scan) => scan.scanClass)).toEqual(["REAL", "REAL"]);
  });

  it("answers a HEAD with the headers and no body, recorded as a prefetch, as the dynamic route does", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id);
    const dynamic = await answer(await viaDynamicRoute("HEAD", tag.encryptedId, nextTestIp()));
    const fixed = await answer(await viaStaticRoute("HEAD", tag.encryptedId, nextTestIp()));
    expect(fixed).toEqual(dynamic);
    expect(fixed).toMatchObject({ status: 200, body: "" });
    expect((await scansOf(tag.id)).map((scan) => scan.scanClass)).toEqual(["PREFETCH", "PREFETCH"]);
  });

  it("an unknown id: the same 404, nothing stored", async () => {
    const unknown = "NoSuchTagAnywhere1234";
    const dynamic = await answer(await viaDynamicRoute("GET", unknown, nextTestIp()));
    expect(dynamic.status).toBe(404);
    expect(await answer(await viaStaticRoute("GET", unknown, nextTestIp()))).toEqual(dynamic);
  });

  it("asked for by its own address (no stamp: the hook removes any a client sends), it is the dynamic route's /api/v1/scan/view", async () => {
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const) {
      const dynamic = await answer(await viaDynamicRoute(method, "view", nextTestIp()));
      expect(await answer(await viaStaticRoute(method, undefined, nextTestIp())), method).toEqual(dynamic);
      expect(dynamic.status, method).toBe(method === "OPTIONS" ? 204 : method === "GET" || method === "HEAD" ? 404 : 405);
    }
  });
});

describe("the finder's page's static route", () => {
  const phone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";
  type PageMethod = "GET" | "HEAD" | "POST";
  const pageHandler = (route: typeof finderPageRoute, method: PageMethod) => route[method === "HEAD" ? "GET" : method];
  const form = (method: PageMethod): { rawBody?: string; headers: Record<string, string> } =>
    method === "POST" ? { rawBody: "message=Found+your+dog", headers: { host: "localhost:3000", "content-type": "application/x-www-form-urlencoded" } } : { headers: {} };

  function pageByDynamicRoute(method: PageMethod, encryptedId: string, ip: string): Promise<Response> {
    const { rawBody, headers } = form(method);
    return call(pageHandler(finderPageRoute, method) as never, apiRequest(`/t/${encryptedId}`, { method, ip, rawBody, headers: { "user-agent": phone, "accept-language": "es", ...headers } }), { encryptedId });
  }

  function pageByStaticRoute(method: PageMethod, stampedId: string | undefined, ip: string): Promise<Response> {
    const { rawBody, headers } = form(method);
    const stamp: Record<string, string> = stampedId === undefined ? {} : { [ROUTE_PARAM_HEADER]: stampedId };
    return call(pageHandler(finderPageStandIn as typeof finderPageRoute, method) as never, apiRequest(STATIC_FINDER_PAGE_ROUTE, { method, ip, rawBody, headers: { "user-agent": phone, "accept-language": "es", ...headers, ...stamp } }));
  }

  it("serves a tag's page as the dynamic route does, and records the view as a scan the same way", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { itemName: "Luna", status: "ACTIVE" });
    for (const method of ["GET", "HEAD"] as const) {
      const dynamic = await answer(await pageByDynamicRoute(method, tag.encryptedId, nextTestIp()));
      const fixed = await answer(await pageByStaticRoute(method, tag.encryptedId, nextTestIp()));
      expect(dynamic.status, method).toBe(200);
      expect(fixed, method).toEqual(dynamic);
    }
    const page = await answer(await pageByStaticRoute("GET", tag.encryptedId, nextTestIp()));
    expect(page.body).toContain("Luna");
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect((await scansOf(tag.id)).map((scan) => scan.scanClass).sort()).toEqual(["PREFETCH", "PREFETCH", "REAL", "REAL", "REAL"]);
  });

  it("asked for by its own address (no stamp), it is the dynamic route's /t/view: the not-found page, for a POST too", async () => {
    for (const method of ["GET", "HEAD", "POST"] as const) {
      const dynamic = await answer(await pageByDynamicRoute(method, "view", nextTestIp()));
      expect(await answer(await pageByStaticRoute(method, undefined, nextTestIp())), method).toEqual(dynamic);
      expect(dynamic.status, method).toBe(404);
    }
  });
});
