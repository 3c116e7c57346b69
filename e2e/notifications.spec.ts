import type { APIRequestContext } from "@playwright/test";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, newAccount, registerByApi, signInWithForm } from "./support/accounts";
import { e2eAdmin, e2eBaseUrl } from "./support/server-env";

/** The `data` of a successful API answer, failing the test with the body otherwise. */
async function apiData<T>(response: import("@playwright/test").APIResponse, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

/**
 * Someone else, through the API with Bearer tokens: the admin mints a tag, a new user claims it and
 * offers it to `toEmail`. The transfer service notifies the recipient (TRANSFER_RECEIVED).
 */
async function offerTagTo(newApi: () => Promise<APIRequestContext>, toEmail: string): Promise<void> {
  // A context per actor: login and register set a session cookie, and a cookie POST without Origin is refused.
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
      const contexts: APIRequestContext[] = [];
      try {
        await offerTagTo(async () => {
          const context = await playwright.request.newContext({ baseURL: e2eBaseUrl });
          contexts.push(context);
          return context;
        }, recipient.email);
      } finally {
        await Promise.all(contexts.map((context) => context.dispose()));
      }
      await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
      await expect(page.getByRole("status").filter({ hasText: "New notification: A tag is being transferred to you" })).toHaveCount(1);
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      await expectRenderedScreenshot(page, testInfo, "dashboard-bell-unread", { fullPage: false });
    });

    await test.step("the notifications page lists it as unread; mark all as read zeroes the bell", async () => {
      await bell.click();
      await expect(page).toHaveURL(/\/dashboard\/notifications$/);
      await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
      const items = page.getByRole("list", { name: "Notifications, newest first" }).getByRole("listitem");
      await expect(items).toHaveCount(1);
      await expect(items.first()).toContainText("A tag is being transferred to you");
      await expect(items.first()).toContainText("Blue backpack");
      await expect(items.first()).toHaveAttribute("data-read", "false");
      await expect(items.first().getByText("Unread", { exact: true })).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "notifications-unread");

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
      await expect(email.getByRole("switch")).toHaveCount(4);
      await expect(push.getByRole("switch")).toHaveCount(3);
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

    await test.step("the push button is offered for this device", async () => {
      await expect(page.getByRole("button", { name: "Enable push on this device" })).toBeVisible();
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
});
