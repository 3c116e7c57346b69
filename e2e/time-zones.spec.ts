import type { Browser, BrowserContext, Page } from "@playwright/test";
import { formatDateTime } from "../components/dashboard/dates";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { newAccount, registerByApi, signInWithForm } from "./support/accounts";
import { e2eBaseUrl } from "./support/server-env";

// The browser's own zone: the dashboard learns it from the browser (the tz cookie), not from the server's clock.
test.use({ timezoneId: "America/New_York" });

/** The "Signed in" time of this device's row on the sessions page. */
function signedInTime(page: Page) {
  const row = page.getByRole("region", { name: /Signed in on/ }).getByRole("listitem").filter({ hasText: "This device" });
  return row.locator("dt", { hasText: "Signed in" }).locator("+ dd time");
}

/** The same signed-in session in a browser without JavaScript, with the tz cookie set to `tzCookie` (null: none). */
async function withoutJavaScript(browser: Browser, from: BrowserContext, tzCookie: string | null): Promise<BrowserContext> {
  const state = await from.storageState();
  const context = await browser.newContext({ javaScriptEnabled: false, timezoneId: "America/New_York", storageState: { ...state, cookies: state.cookies.filter((cookie) => cookie.name !== "tz") } });
  if (tzCookie !== null) await context.addCookies([{ name: "tz", value: tzCookie, url: e2eBaseUrl }]);
  return context;
}

test.describe("times in the owner's time zone", () => {
  test("the browser's zone after the first load, then the zone saved in the notification settings", async ({ page, browser, request }, testInfo) => {
    test.setTimeout(120_000);
    const account = newAccount("timezone");
    await registerByApi(request, account);
    await signInWithForm(page, account);

    let iso = "";
    await test.step("a first visit renders UTC on the server, then the browser's zone once the tz cookie is set", async () => {
      await page.context().clearCookies({ name: "tz" });
      const response = await page.goto("/dashboard/account/sessions");
      const time = signedInTime(page);
      iso = (await time.getAttribute("datetime")) ?? "";
      expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      // Without a saved zone or a cookie the server knows no better than UTC, and says so.
      expect(await response!.text()).toContain(formatDateTime(iso, "UTC"));

      const newYork = formatDateTime(iso, "America/New_York");
      expect(newYork).toMatch(/GMT-[45]$/);
      await expect(time).toHaveText(newYork);
      expect((await page.context().cookies()).find((cookie) => cookie.name === "tz")).toMatchObject({ value: "America/New_York", path: "/", sameSite: "Lax" });

      // From now on the server renders it right the first time.
      const again = await page.goto("/dashboard/account/sessions");
      expect(await again!.text()).toContain(newYork);
    });

    await test.step("without JavaScript, a hostile tz cookie is ignored and the page shows UTC", async () => {
      const context = await withoutJavaScript(browser, page.context(), "Mars/Olympus_Mons");
      const plain = await context.newPage();
      const response = await plain.goto("/dashboard/account/sessions");
      expect(response!.status()).toBe(200);
      await expect(signedInTime(plain)).toHaveText(formatDateTime(iso, "UTC"));
      await context.close();
    });

    await test.step("the notification settings offer the browser's zone by default and save another one", async () => {
      await page.goto("/dashboard/notifications/preferences");
      const zone = page.getByLabel("Time zone");
      await expect(zone).toHaveValue("");
      await expect(zone.locator("option:checked")).toHaveText("This browser's zone (America/New York)");
      const save = page.getByRole("button", { name: "Save settings" });
      await waitForHydration(save);
      await zone.selectOption("Asia/Tokyo");
      await save.click();
      await expect(page.getByRole("status").filter({ hasText: "Your notification settings are saved." })).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "notification-settings-time-zone");

      const stored = await page.request.get("/api/v1/notifications/preferences");
      expect(stored.status()).toBe(200);
      expect((await stored.json()).data).toMatchObject({ timeZone: "Asia/Tokyo", quietHours: null });
    });

    await test.step("the same time now shows in the saved zone, whatever the browser's", async () => {
      const tokyo = formatDateTime(iso, "Asia/Tokyo");
      expect(tokyo).toMatch(/GMT\+9$/);
      await page.goto("/dashboard/account/sessions");
      await expect(signedInTime(page)).toHaveText(tokyo);

      const context = await withoutJavaScript(browser, page.context(), "America/New_York");
      const plain = await context.newPage();
      await plain.goto("/dashboard/account/sessions");
      await expect(signedInTime(plain)).toHaveText(tokyo);
      await context.close();
    });

    await test.step("quiet hours with no zone chosen: without JavaScript (no browser zone known) the form asks for one", async () => {
      const context = await withoutJavaScript(browser, page.context(), null);
      const plain = await context.newPage();
      await plain.goto("/dashboard/notifications/preferences");
      const zone = plain.getByLabel("Time zone");
      await expect(zone.locator("option:checked")).toHaveText("Asia/Tokyo");
      await zone.selectOption("");
      await expect(zone.locator("option", { hasText: "This browser's zone" })).toHaveText("This browser's zone");
      await plain.getByRole("switch", { name: "Pause e-mail and push during quiet hours" }).check();
      await plain.getByRole("button", { name: "Save settings" }).click();
      await expect(plain.getByText("Choose a time zone.")).toBeVisible();
      await expect(plain.getByLabel("Time zone")).toHaveAttribute("aria-invalid", "true");
      await expect(plain.getByLabel("Time zone")).toHaveValue("");
      // (axe needs JavaScript in the page: the screenshots with their accessibility checks are taken with it.)
      await context.close();
      const stored = await page.request.get("/api/v1/notifications/preferences");
      expect((await stored.json()).data).toMatchObject({ timeZone: "Asia/Tokyo", quietHours: null });
    });

    await test.step("quiet hours with no zone chosen: with JavaScript, this browser's zone is saved for them", async () => {
      await page.goto("/dashboard/notifications/preferences");
      const zone = page.getByLabel("Time zone");
      await expect(zone).toHaveValue("Asia/Tokyo");
      const save = page.getByRole("button", { name: "Save settings" });
      await waitForHydration(save);
      await zone.selectOption("");
      await page.getByRole("switch", { name: "Pause e-mail and push during quiet hours" }).check();
      await save.click();
      await expect(page.getByRole("status").filter({ hasText: "this browser's, America/New York, is now yours." })).toBeVisible();
      await expect(zone).toHaveValue("America/New_York");
      await expectRenderedScreenshot(page, testInfo, "notification-settings-quiet-hours-browser-zone");
      const stored = await page.request.get("/api/v1/notifications/preferences");
      expect((await stored.json()).data).toMatchObject({ timeZone: "America/New_York", quietHours: { start: "22:00", end: "07:00", timeZone: "America/New_York" } });
    });
  });
});
