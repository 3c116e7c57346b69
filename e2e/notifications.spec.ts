import type { APIRequestContext } from "@playwright/test";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { confirmEmailWithMailbox, expectNoHorizontalScroll, newAccount, registerByApi, signInWithForm, signOutFromMenu } from "./support/accounts";
import { e2eAdmin, e2eBaseUrl, e2eSecrets } from "./support/server-env";
import { startPushService, type PushService, type TestSubscription } from "../tests/support/push-service";

/** The `data` of a successful API answer, failing the test with the body otherwise. */
async function apiData<T>(response: import("@playwright/test").APIResponse, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

type RequestFactory = { request: { newContext(options: { baseURL: string }): Promise<APIRequestContext> } };

/**
 * Someone else, through the API with Bearer tokens: the admin mints a tag, a new user claims it and
 * offers it to `toEmail`. The transfer service notifies the recipient (TRANSFER_RECEIVED) when the
 * recipient's account has confirmed the address.
 */
async function offerTagTo(playwright: RequestFactory, toEmail: string): Promise<void> {
  // A context per actor: login and register set a session cookie, and a cookie POST without Origin is refused.
  const contexts: APIRequestContext[] = [];
  const newApi = async () => {
    const context = await playwright.request.newContext({ baseURL: e2eBaseUrl });
    contexts.push(context);
    return context;
  };
  try {
    await offerWith(newApi, toEmail);
  } finally {
    await Promise.all(contexts.map((context) => context.dispose()));
  }
}

async function offerWith(newApi: () => Promise<APIRequestContext>, toEmail: string): Promise<void> {
  const adminApi = await newApi();
  const admin = await apiData<{ accessToken: string }>(await adminApi.post("/api/v1/auth/login", { data: { email: e2eAdmin.email, password: e2eAdmin.password } }), 200);
  const [minted] = await apiData<{ code: string }[]>(
    await adminApi.post("/api/v1/admin/tags/batch", { data: { count: 1 }, headers: { Authorization: `Bearer ${admin.accessToken}` } }),
    201,
  );
  const api = await newApi();
  const sender = newAccount("sender");
  const registered = await apiData<{ accessToken: string }>(
    await api.post("/api/v1/auth/register", { data: { email: sender.email, password: sender.password, firstName: "Grace", lastName: "Hopper" } }),
    201,
  );
  const auth = { Authorization: `Bearer ${registered.accessToken}` };
  const tag = await apiData<{ id: string }>(await api.post("/api/v1/tags/activate", { data: { code: minted!.code, itemName: "Blue backpack" }, headers: auth }), 201);
  await apiData(await api.post(`/api/v1/tags/${tag.id}/transfer`, { data: { email: toEmail }, headers: auth }), 201);
}

test.describe("notifications in the dashboard", () => {
  test("a notification appears in the open dashboard without a reload; list, mark all read, settings", async ({ page, request, playwright }, testInfo) => {
    test.setTimeout(120_000);
    const recipient = newAccount("notified");
    await registerByApi(request, recipient);
    await signInWithForm(page, recipient);
    // Offers to an address are listed and notified in the app only once its holder has confirmed it.
    await confirmEmailWithMailbox(page, recipient);

    const bell = page.getByRole("link", { name: /^Notifications, \d+ unread$/ });
    await test.step("the dashboard header shows the bell with nothing unread and opens the live stream", async () => {
      const streamOpened = page.waitForResponse((response) => response.url().endsWith("/api/v1/notifications/stream") && response.status() === 200);
      await page.goto("/dashboard");
      await streamOpened;
      await expect(bell).toHaveAccessibleName("Notifications, 0 unread");
      await waitForHydration(bell);
      await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Notifications", exact: true })).toBeVisible();
    });

    await test.step("another user offers a tag: the count goes to 1 and it is announced, without a reload", async () => {
      await page.evaluate(() => {
        (window as unknown as { __sameDocument?: boolean }).__sameDocument = true;
      });
      await offerTagTo(playwright, recipient.email);
      await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
      await expect(page.getByRole("status").filter({ hasText: "New notification: A tag is being transferred to you" })).toHaveCount(1);
      // The overview shows notifications too: it refreshes with the offer and its notification.
      await expect(page.getByRole("heading", { level: 2, name: "A tag is waiting for you" })).toBeVisible();
      const latest = page.getByRole("list", { name: "Latest notifications" }).getByRole("listitem");
      await expect(latest).toHaveCount(1);
      await expect(latest.first().getByRole("link", { name: "A tag is being transferred to you" })).toHaveAttribute("href", /^\/dashboard\/notifications\/[0-9a-f-]{36}\/open$/);
      await expect(page.getByRole("region", { name: "Latest notifications" })).toContainText("1 unread notification.");
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      await expectRenderedScreenshot(page, testInfo, "dashboard-bell-unread", { fullPage: false });
    });

    const items = page.getByRole("list", { name: "Notifications, newest first" }).getByRole("listitem");
    await test.step("the notifications page lists it as unread; opening it marks it read and leads to the transfers", async () => {
      await bell.click();
      await expect(page).toHaveURL(/\/dashboard\/notifications$/);
      await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
      await expect(items).toHaveCount(1);
      await expect(items.first()).toContainText("A tag is being transferred to you");
      await expect(items.first()).toContainText("Blue backpack");
      await expect(items.first()).toHaveAttribute("data-read", "false");
      await expect(items.first().getByText("Unread", { exact: true })).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "notifications-unread");

      const open = items.first().getByRole("link", { name: /^Open your transfers ?: A tag is being transferred to you$/ });
      await expect(open).toHaveAttribute("href", /^\/dashboard\/notifications\/[0-9a-f-]{36}\/open$/);
      await open.click();
      await expect(page).toHaveURL(/\/dashboard\/tags\/transfers$/);
      await expect(page.getByRole("list", { name: "Incoming transfers" })).toContainText("Blue backpack");
      await expect(bell).toHaveAccessibleName("Notifications, 0 unread");
      await page.goto("/dashboard/notifications");
      await expect(items.first()).toHaveAttribute("data-read", "true");
      await expect(page.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
    });

    await test.step("a second offer appears in the open list; mark all as read zeroes the bell", async () => {
      await page.evaluate(() => {
        (window as unknown as { __sameDocument?: boolean }).__sameDocument = true;
      });
      await offerTagTo(playwright, recipient.email);
      // On the list itself the new one appears without a reload.
      await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
      await expect(items).toHaveCount(2);
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      await expect(items.first()).toHaveAttribute("data-read", "false");

      const markAll = page.getByRole("button", { name: "Mark all as read" });
      await waitForHydration(markAll);
      await markAll.click();
      await expect(page.getByRole("status").filter({ hasText: "1 notification marked as read." })).toBeVisible();
      await expect(bell).toHaveAccessibleName("Notifications, 0 unread");
      await expect(items.first()).toHaveAttribute("data-read", "true");
      await expect(page.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
    });

    await test.step("the settings page saves a switch and quiet hours", async () => {
      await page.getByRole("link", { name: "Notification settings" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Notification settings" })).toBeVisible();
      const email = page.getByRole("group", { name: "E-mail me when" });
      const push = page.getByRole("group", { name: "Send a push notification when" });
      // Scans, messages, status changes and lost pets near my home; e-mail adds news and offers.
      await expect(email.getByRole("switch")).toHaveCount(5);
      await expect(push.getByRole("switch")).toHaveCount(4);
      const marketing = email.getByRole("switch", { name: "News and offers" });
      await expect(marketing).not.toBeChecked();
      await expect(push.getByRole("switch", { name: "A tag is scanned" })).toBeChecked();

      const save = page.getByRole("button", { name: "Save settings" });
      await waitForHydration(save);
      await marketing.check();
      await push.getByRole("switch", { name: "A tag is scanned" }).uncheck();
      await page.getByRole("switch", { name: "Pause e-mail and push during quiet hours" }).check();
      await page.getByLabel("From").fill("22:30");
      await page.getByLabel("Until").fill("06:45");
      await page.getByLabel("Time zone").selectOption("Europe/Berlin");
      await save.click();
      await expect(page.getByRole("status").filter({ hasText: "Your notification settings are saved." })).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "notification-settings-saved");

      await page.reload();
      await expect(page.getByRole("group", { name: "E-mail me when" }).getByRole("switch", { name: "News and offers" })).toBeChecked();
      await expect(page.getByRole("group", { name: "Send a push notification when" }).getByRole("switch", { name: "A tag is scanned" })).not.toBeChecked();
      await expect(page.getByRole("switch", { name: "Pause e-mail and push during quiet hours" })).toBeChecked();
      await expect(page.getByLabel("From")).toHaveValue("22:30");
      await expect(page.getByLabel("Time zone")).toHaveValue("Europe/Berlin");

      // The API sees the same settings (the page calls the same service).
      const stored = await apiData<{ email: { marketing: boolean }; push: { tagScanned: boolean }; quietHours: unknown }>(
        await request.get("/api/v1/notifications/preferences"),
        200,
      );
      expect(stored.email.marketing).toBe(true);
      expect(stored.push.tagScanned).toBe(false);
      expect(stored.quietHours).toEqual({ start: "22:30", end: "06:45", timeZone: "Europe/Berlin" });
    });

    await test.step("375 px wide: nothing scrolls sideways", async () => {
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto("/dashboard/notifications");
      await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectRenderedScreenshot(page, testInfo, "notifications-375");
      await page.goto("/dashboard/notifications/preferences");
      await expect(page.getByRole("heading", { level: 1, name: "Notification settings" })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectRenderedScreenshot(page, testInfo, "notification-settings-375");
    });
  });

  test("with a sixth tab open, the oldest tab's live stream steps aside and catches up when looked at again", async ({ page, context, request, playwright }) => {
    test.setTimeout(120_000);
    const account = newAccount("tabs");
    await registerByApi(request, account);
    await signInWithForm(page, account);
    // Offers to an address are listed and notified in the app only once its holder has confirmed it.
    await confirmEmailWithMailbox(page, account);

    const streamOf = (tab: import("@playwright/test").Page) =>
      tab.waitForResponse((response) => response.url().endsWith("/api/v1/notifications/stream") && response.status() === 200);
    const tabs = [page];
    const opened = streamOf(page);
    await page.goto("/dashboard");
    await opened;
    for (let i = 1; i < 6; i++) {
      const tab = await context.newPage();
      const streaming = streamOf(tab);
      await tab.goto("/dashboard/account");
      await streaming;
      tabs.push(tab);
    }
    const bellOf = (tab: import("@playwright/test").Page) => tab.getByRole("link", { name: /^Notifications, \d+ unread$/ });
    // Count the first tab's stream requests from here on: it must not reconnect by itself.
    let reconnects = 0;
    page.on("request", (req) => {
      if (req.url().includes("/api/v1/notifications/stream")) reconnects += 1;
    });

    await offerTagTo(playwright, account.email);
    for (const tab of tabs.slice(1)) await expect(bellOf(tab)).toHaveAccessibleName("Notifications, 1 unread");
    await expect(bellOf(page)).toHaveAccessibleName("Notifications, 0 unread");
    expect(reconnects).toBe(0);

    // Looked at again, the first tab reconnects and shows the current count.
    const back = streamOf(page);
    await page.bringToFront();
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await back;
    await expect(bellOf(page)).toHaveAccessibleName("Notifications, 1 unread");
    for (const tab of tabs.slice(1)) await tab.close();
  });

  test("the settings and the list work with the keyboard alone", async ({ page, request, playwright, browser }, testInfo) => {
    const account = newAccount("keys");
    await registerByApi(request, account);
    await signInWithForm(page, account);
    // Offers to an address are listed and notified in the app only once its holder has confirmed it.
    await confirmEmailWithMailbox(page, account);
    await page.goto("/dashboard/notifications/preferences");
    const marketing = page.getByRole("group", { name: "E-mail me when" }).getByRole("switch", { name: "News and offers" });
    await waitForHydration(page.getByRole("button", { name: "Save settings" }));

    // Space toggles a focused switch; Tab moves on in reading order; Enter on the button saves.
    await marketing.focus();
    await page.keyboard.press("Space");
    await expect(marketing).toBeChecked();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("group", { name: "Send a push notification when" }).getByRole("switch").first()).toBeFocused();
    await page.getByRole("switch", { name: "Pause e-mail and push during quiet hours" }).focus();
    await page.keyboard.press("Space");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("From")).toBeFocused();
    await page.getByRole("button", { name: "Save settings" }).focus();
    await page.keyboard.press("Enter");
    const saved = page.getByRole("status").filter({ hasText: "Your notification settings are saved." });
    await expect(saved).toBeVisible();
    // The result takes the focus, so a screen reader reads it and the keyboard continues from there.
    await expect(saved).toBeFocused();
    await page.reload();
    await expect(page.getByRole("switch", { name: "Pause e-mail and push during quiet hours" })).toBeChecked();

    await offerTagTo(playwright, account.email);
    await page.goto("/dashboard/notifications");
    const markRead = page.getByRole("button", { name: /^Mark as read ?: A tag is being transferred to you$/ });
    await waitForHydration(markRead);
    await markRead.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Marked as read." })).toBeVisible();
    await expect(page.getByRole("list", { name: "Notifications, newest first" }).getByRole("listitem").first()).toHaveAttribute("data-read", "true");
    await expectRenderedScreenshot(page, testInfo, "notifications-marked-read");

    // An e-mail's button (the same open link) in a signed-out browser: sign in first, then on to the subject.
    const openHref = await page.getByRole("list", { name: "Notifications, newest first" }).getByRole("listitem").first().getByRole("link").getAttribute("href");
    const elsewhere = await browser.newContext();
    try {
      const mailPage = await elsewhere.newPage();
      // Going to the link lands on the sign-in page (with ?next=), whose form is filled in there.
      await signInWithForm(mailPage, account, openHref!);
      await expect(mailPage).toHaveURL(/\/dashboard\/tags\/transfers$/);
    } finally {
      await elsewhere.close();
    }
  });

  test.describe("push on this device", () => {
    let pushService: PushService;
    test.beforeAll(async () => {
      pushService = await startPushService();
    });
    test.afterAll(async () => {
      await pushService?.close();
    });

    test("enabling push registers the service worker, subscribes with our VAPID key, and the next notification is pushed to the device", async ({ page, context, request, playwright }, testInfo) => {
      test.setTimeout(120_000);
      const device = pushService.createSubscription();
      await standInForThePushService(page, device);
      await context.grantPermissions(["notifications"], { origin: e2eBaseUrl });
      const account = newAccount("pushed");
      await registerByApi(request, account);
      await signInWithForm(page, account);
      await confirmEmailWithMailbox(page, account);

      await page.goto("/dashboard/notifications/preferences");
      await expect(page.getByText("Push notifications are off on this device.")).toBeVisible();
      const enable = page.getByRole("button", { name: "Enable push on this device" });
      await waitForHydration(enable);
      const posted = page.waitForResponse((response) => response.url().endsWith("/api/v1/notifications/subscribe") && response.request().method() === "POST");
      await enable.click();
      expect((await posted).status()).toBe(200);
      await expect(page.getByRole("status").filter({ hasText: "Push notifications are on for this device." })).toBeVisible();
      await expect(page.getByRole("button", { name: "Disable push on this device" })).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "push-enabled", { fullPage: false });

      // The page registered /sw.js for the whole origin and subscribed with the server's VAPID key.
      const registration = await page.evaluate(async () => {
        const found = await navigator.serviceWorker.getRegistration("/");
        return { scope: found?.scope, script: found?.active?.scriptURL };
      });
      expect(registration).toEqual({ scope: `${e2eBaseUrl}/`, script: `${e2eBaseUrl}/sw.js` });
      expect(await page.evaluate(() => localStorage.getItem("e2e.push.applicationServerKey"))).toBe(e2eSecrets.VAPID_PUBLIC_KEY);

      // A reload finds the device subscribed.
      await page.reload();
      await expect(page.getByText("Push notifications are on for this device.")).toBeVisible();

      // Signing out leaves the browser's subscription behind, but the server stops using it: signed in
      // again, this device shows push off until it is enabled again (which hands the same subscription over).
      await signOutFromMenu(page);
      await signInWithForm(page, account);
      await page.goto("/dashboard/notifications/preferences");
      await expect(page.getByText("Push notifications are off on this device.")).toBeVisible();
      const again = page.getByRole("button", { name: "Enable push on this device" });
      await waitForHydration(again);
      const reposted = page.waitForResponse((response) => response.url().endsWith("/api/v1/notifications/subscribe") && response.request().method() === "POST");
      await again.click();
      expect((await reposted).status()).toBe(200);
      await expect(page.getByRole("status").filter({ hasText: "Push notifications are on for this device." })).toBeVisible();
      // The sessions page shows which sign-in gets push.
      await page.goto("/dashboard/account/sessions");
      const thisDevice = page.getByRole("listitem").filter({ hasText: "This device" });
      await expect(thisDevice.getByText("Push on", { exact: true })).toBeVisible();
      await page.goto("/dashboard/notifications/preferences");
      await expect(page.getByText("Push notifications are on for this device.")).toBeVisible();

      // Another user offers a tag: the server's push job encrypts it for this device's keys.
      await offerTagTo(playwright, account.email);
      await expect.poll(() => pushService.receivedBy(device.id).length, { timeout: 30_000 }).toBe(1);
      expect(pushService.rejected).toEqual([]);
      const [push] = pushService.receivedBy(device.id);
      const payload = JSON.parse(push!.payload) as { title: string; body: string; url: string; id: string };
      expect(payload.title).toBe("A tag is being transferred to you");
      expect(payload.body).toContain("Blue backpack");
      expect(payload.url).toBe(`/dashboard/notifications/${payload.id}/open`);
      expect(push!.vapid.publicKey).toBe(e2eSecrets.VAPID_PUBLIC_KEY);

      // The decrypted message handed to the real service worker shows a notification. The protocol's
      // delivery is fire-and-forget and now and then lands while the worker is starting, so it is
      // repeated until shown; the worker tags notifications by id, so a repeat replaces, never adds.
      const shownNotifications = () =>
        page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((shown) => ({ title: shown.title, body: shown.body, tag: shown.tag })));
      await expect
        .poll(
          async () => {
            const shown = await shownNotifications();
            if (shown.length === 0) await deliverToServiceWorker(page, push!.payload);
            return shown;
          },
          { intervals: [250, 500, 1000, 2000] },
        )
        .toEqual([{ title: payload.title, body: payload.body, tag: payload.id }]);

      // Disabling removes the device: the next notification is not pushed.
      const disable = page.getByRole("button", { name: "Disable push on this device" });
      await waitForHydration(disable);
      const removed = page.waitForResponse((response) => response.url().endsWith("/api/v1/notifications/unsubscribe"));
      await disable.click();
      expect((await removed).status()).toBe(200);
      await expect(page.getByRole("status").filter({ hasText: "Push notifications are off on this device." })).toBeVisible();
      await expect(page.getByRole("button", { name: "Enable push on this device" })).toBeVisible();
      // A second device of the same user, subscribed through the API, is the witness: the push job sends
      // to every device of the user at once, so when the second one has it, the first would have too.
      const otherApi = await playwright.request.newContext({ baseURL: e2eBaseUrl });
      try {
        const session = await apiData<{ accessToken: string }>(await otherApi.post("/api/v1/auth/login", { data: { email: account.email, password: account.password } }), 200);
        const other = pushService.createSubscription();
        await apiData(
          await otherApi.post("/api/v1/notifications/subscribe", { data: { subscription: { endpoint: other.endpoint, keys: other.keys } }, headers: { Authorization: `Bearer ${session.accessToken}` } }),
          200,
        );
        await offerTagTo(playwright, account.email);
        await expect.poll(() => pushService.receivedBy(other.id).length, { timeout: 30_000 }).toBe(1);
      } finally {
        await otherApi.dispose();
      }
      expect(pushService.receivedBy(device.id)).toHaveLength(1);

      // The push's click URL (what the service worker opens) marks it read and leads to the transfers.
      const unreadBefore = ((await (await page.request.get("/api/v1/notifications/unread-count")).json()) as { data: { count: number } }).data.count;
      await page.goto(payload.url);
      await expect(page).toHaveURL(/\/dashboard\/tags\/transfers$/);
      const unreadAfter = ((await (await page.request.get("/api/v1/notifications/unread-count")).json()) as { data: { count: number } }).data.count;
      expect(unreadAfter).toBe(unreadBefore - 1);
    });
  });
});

/**
 * Headless Chromium has no push service (it would be Google's FCM), so PushManager is stood in for:
 * subscribe() checks what a browser checks (permission granted, userVisibleOnly), records the
 * applicationServerKey the page passed, and returns `device`, a subscription of the local push
 * service in this process, which decrypts and records what the server sends. Everything else (the
 * service worker, the permission, the page's requests, the server's job) is the real thing.
 */
async function standInForThePushService(page: import("@playwright/test").Page, device: TestSubscription): Promise<void> {
  await page.addInitScript(({ endpoint, keys }) => {
    const subscribedKey = "e2e.push.subscribed";
    const toBase64Url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const subscription = () =>
      ({
        endpoint,
        expirationTime: null,
        toJSON: () => ({ endpoint, expirationTime: null, keys }),
        unsubscribe: async () => {
          localStorage.removeItem(subscribedKey);
          return true;
        },
      }) as unknown as PushSubscription;
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      if (Notification.permission !== "granted") throw new DOMException("Registration failed - permission denied", "NotAllowedError");
      if (!options?.userVisibleOnly) throw new DOMException("userVisibleOnly is required", "NotAllowedError");
      const key = options.applicationServerKey;
      if (!key || typeof key === "string") throw new DOMException("an applicationServerKey of bytes is required", "InvalidAccessError");
      localStorage.setItem("e2e.push.applicationServerKey", toBase64Url(new Uint8Array(key instanceof ArrayBuffer ? key : key.buffer)));
      localStorage.setItem(subscribedKey, "1");
      return subscription();
    };
    PushManager.prototype.getSubscription = async function () {
      return localStorage.getItem(subscribedKey) ? subscription() : null;
    };
  }, { endpoint: device.endpoint, keys: device.keys });
}

/** Dispatches a push event with `data` to the page's service worker, as the browser does on a push (DevTools protocol). */
async function deliverToServiceWorker(page: import("@playwright/test").Page, data: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const registrationId = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const ours = registrations.find((registration) => registration.scopeURL === `${e2eBaseUrl}/` && !registration.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: e2eBaseUrl, registrationId: await registrationId, data });
  } finally {
    await cdp.detach();
  }
}
