import { devices, expect, type APIRequestContext, type APIResponse, type Browser, type BrowserContext } from "@playwright/test";
import { newAccount, type TestAccount } from "./accounts";
import { e2eAdmin, e2eBaseUrl } from "./server-env";

/** The finder's side of the e2e suite: an owner with a LOST tag set up through the API, and a finder's phone. */
export const PHONE = { width: 390, height: 844 };

export async function apiData<T>(response: APIResponse, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

export interface OwnedTag {
  owner: TestAccount;
  token: string;
  tagId: string;
  code: string;
  encryptedId: string;
}

/**
 * Through the API: the admin mints a tag; a new owner registers, claims it as "Rex's collar" with a
 * description and puts it in LOST with a note. Owner contact details are set, so the test can check
 * that none of them reaches a finder's page.
 */
export type RequestFactory = { request: { newContext(options: { baseURL: string }): Promise<APIRequestContext> } };

/** A fresh API client with no cookies, for calls made with a Bearer token only. */
export async function bearerApi<T>(playwright: RequestFactory, work: (api: APIRequestContext) => Promise<T>): Promise<T> {
  const api = await playwright.request.newContext({ baseURL: e2eBaseUrl });
  try {
    return await work(api);
  } finally {
    await api.dispose();
  }
}

/** `lost: false` leaves the tag ACTIVE, for a test that turns lost mode on through the dashboard. */
export async function lostTag(playwright: RequestFactory, { lost = true }: { lost?: boolean } = {}): Promise<OwnedTag> {
  // Login and register set a session cookie, and a cookie request without Origin is refused: each step
  // that signs someone in gets its own client, and the owner's calls go with the Bearer token alone.
  const admin = await bearerApi(playwright, async (api) => apiData<{ accessToken: string }>(await api.post("/api/v1/auth/login", { data: { email: e2eAdmin.email, password: e2eAdmin.password } }), 200));
  const owner = newAccount("owner");
  const registered = await bearerApi(playwright, async (api) =>
    apiData<{ accessToken: string }>(
      await api.post("/api/v1/auth/register", { data: { email: owner.email, password: owner.password, firstName: "Maria", lastName: "Lopez" } }),
      201,
    ),
  );
  return bearerApi(playwright, (request) => setUpLostTag(request, admin.accessToken, owner, registered.accessToken, lost));
}

async function setUpLostTag(request: APIRequestContext, adminToken: string, owner: TestAccount, ownerToken: string, lost: boolean): Promise<OwnedTag> {
  const [minted] = await apiData<{ code: string; encryptedId: string }[]>(
    await request.post("/api/v1/admin/tags/batch", { data: { count: 1 }, headers: { Authorization: `Bearer ${adminToken}` } }),
    201,
  );
  const registered = { accessToken: ownerToken };
  const auth = { Authorization: `Bearer ${registered.accessToken}` };
  const tag = await apiData<{ id: string; encryptedId: string }>(await request.post("/api/v1/tags/activate", { data: { code: minted!.code, itemName: "Rex's collar" }, headers: auth }), 201);
  await apiData(
    await request.patch(`/api/v1/profiles/${tag.id}`, {
      data: { itemName: "Rex's collar", description: "Brown terrier, friendly, answers to Rex.", ownerName: "Maria", contactEmail: owner.email, contactPhone: "+34600111222" },
      headers: auth,
    }),
    200,
  );
  await apiData(await request.patch("/api/v1/auth/me", { data: { phone: "+34 600 333 444" }, headers: auth }), 200);
  if (lost) await apiData(await request.patch(`/api/v1/tags/${tag.id}/status`, { data: { status: "LOST", lostMessage: "Lost near the park. Please message me!" }, headers: auth }), 200);
  return { owner, token: registered.accessToken, tagId: tag.id, code: minted!.code, encryptedId: tag.encryptedId ?? minted!.encryptedId };
}

export async function finderContext(
  browser: Browser,
  options: { locale?: string; javaScriptEnabled?: boolean; timezoneId?: string; geolocation?: { latitude: number; longitude: number; accuracy?: number } } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: e2eBaseUrl,
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    // A real phone's browser: Playwright's own "HeadlessChrome" is, rightly, classed as a bot scan.
    userAgent: devices["iPhone 13"].userAgent,
    locale: options.locale ?? "en-GB",
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    ...(options.geolocation ? { geolocation: options.geolocation, permissions: ["geolocation"] } : {}),
    extraHTTPHeaders: { "Accept-Language": options.locale ?? "en-GB,en;q=0.9" },
  });
}
