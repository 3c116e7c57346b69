import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { form, redirectOf } from "../support/next-request-scope";
import { createTranslator } from "next-intl";
import en from "@/messages/en.json";

// The finder pages' server actions run inside Next's request scope, which a test does not have: only
// `headers()` (the client's address as the server stamps it), `cookies()` (nobody signed in) and the
// translations of the request's language (English, from the app's own messages) are given here. The
// wrapper, the rate limiter, the services, the route handlers and the database are the real ones.
const request = vi.hoisted(() => ({ ip: "192.0.2.1" }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-tag-service-peer": request.ip, "accept-language": "en" }),
  cookies: async () => ({ get: () => undefined, getAll: () => [], has: () => false }),
}));
vi.mock("next-intl/server", () => ({
  getTranslations: async (namespace: string) => createTranslator({ locale: "en", messages: en, namespace: namespace as never }),
}));

// Test files share a worker's modules: an earlier file may have loaded them with the real next/headers.
// A fresh module graph makes this file's mocks the ones every module sees.
vi.resetModules();
const { PEER_ADDRESS_HEADER } = await import("@/lib/http/client-ip");
const { finderContactPost } = await import("../support/finder-page");
const { finderEmailOptInAction, finderReplyAction } = await import("@/app/(finder)/thread/[token]/actions");
const { prepareJobs, stopJobs } = await import("@/lib/jobs");
const { HOUR_MS, MINUTE_MS } = await import("@/lib/ratelimit/policies");
const { registerAccount } = await import("../support/auth");
const { awayFromWindowEdge, nextTestIp } = await import("../support/http");
const { contactOwnerOf, contactRequest, finderReplyRequest } = await import("../support/messages");
const { giveTestTag } = await import("../support/tags");

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

async function activeTag() {
  const owner = await registerAccount();
  return giveTestTag(owner.id, { status: "ACTIVE", itemName: "Blue backpack" });
}

it("the mocked request carries the header the server stamps the client's address in", () => {
  expect(PEER_ADDRESS_HEADER).toBe("x-tag-service-peer");
});

describe("the finder pages and the API share one budget", () => {
  it("counts the page's contact form and POST /scan/:encryptedId/contact together: 10 an hour from one IP", async () => {
    await awayFromWindowEdge(HOUR_MS, 60_000);
    const tag = await activeTag();
    request.ip = nextTestIp();
    for (let i = 0; i < 9; i++) expect((await contactRequest(tag.encryptedId, { message: `API message ${i}` }, { ip: request.ip })).status).toBe(201);
    // The 10th, through the page: allowed, and it lands on the new conversation.
    const page = await finderContactPost(tag.encryptedId, { message: "Page message" }, { ip: request.ip });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toMatch(/^\/thread\/[A-Za-z0-9_-]{43}\?sent=1$/);
    // The 11th, through either door, is refused.
    const limited = await contactRequest(tag.encryptedId, { message: "API message 11" }, { ip: request.ip });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("X-RateLimit-Limit")).toBe("10");
    const refused = await finderContactPost(tag.encryptedId, { message: "Page message 2" }, { ip: request.ip });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(en.Finder.rateLimited);
    // Another address is not affected.
    expect((await contactRequest(tag.encryptedId, { message: "From elsewhere" })).status).toBe(201);
  });

  it("counts the page's reply form and POST /scan/thread/:token/reply together: 30 per 10 minutes from one IP", async () => {
    await awayFromWindowEdge(10 * MINUTE_MS, 60_000);
    const tag = await activeTag();
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found it" });
    request.ip = nextTestIp();
    // The page first: one reply, then 29 through the API.
    expect(await redirectOf(finderReplyAction({ status: "idle" }, form({ token: threadToken, message: "From the page" })))).toBe(`/thread/${threadToken}#latest`);
    for (let i = 0; i < 29; i++) expect((await finderReplyRequest(threadToken, { message: `API reply ${i}` }, { ip: request.ip })).status).toBe(201);
    const limited = await finderReplyRequest(threadToken, { message: "One too many" }, { ip: request.ip });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("X-RateLimit-Limit")).toBe("30");
    expect(await finderReplyAction({ status: "idle" }, form({ token: threadToken, message: "Page again" }))).toMatchObject({ status: "error", message: en.Finder.rateLimited });
  });
});

describe("the thread page's \"e-mail me on reply\" form", () => {
  it("sets the address (then the thread says so), names a bad one in the finder's language, and shares the API's 10 an hour per IP", async () => {
    await awayFromWindowEdge(HOUR_MS, 60_000);
    const tag = await activeTag();
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found it" });
    request.ip = nextTestIp();
    expect(await finderEmailOptInAction({ status: "idle" }, form({ token: threadToken, finderEmail: "nope" }))).toMatchObject({
      status: "error",
      fieldErrors: { finderEmail: [en.Thread.optInInvalid] },
      values: { finderEmail: "nope" },
    });
    expect(await redirectOf(finderEmailOptInAction({ status: "idle" }, form({ token: threadToken, finderEmail: "sam@example.net" })))).toBe(`/thread/${threadToken}?optin=1`);
    const { finderThread } = await import("../support/messages");
    expect((await finderThread(threadToken)).emailOnReply).toBe(true);
    const { PUT: emailRoute } = await import("@/app/api/v1/scan/thread/[token]/email/route");
    const { apiRequest, call } = await import("../support/http");
    for (let i = 0; i < 9; i++) {
      const response = await call(emailRoute, apiRequest(`/api/v1/scan/thread/${threadToken}/email`, { method: "PUT", body: { finderEmail: `sam${i}@example.net` }, ip: request.ip }), { token: threadToken });
      expect(response.status).toBe(200);
    }
    expect(await finderEmailOptInAction({ status: "idle" }, form({ token: threadToken, finderEmail: "late@example.net" }))).toMatchObject({ status: "error", message: en.Finder.rateLimited });
  });
});
