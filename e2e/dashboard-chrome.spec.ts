import type { Locator, Page } from "@playwright/test";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, newAccount, registerByApi, signInWithForm, type TestAccount } from "./support/accounts";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The dashboard's chrome: its bar, the section navigation and the content beside or below them. */
function chrome(page: Page) {
  return {
    avatar: page.getByLabel(/^Account menu for /),
    sections: page.getByRole("navigation", { name: "Dashboard" }),
    content: page.locator("[data-dashboard-content]"),
  };
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, "element laid out").not.toBeNull();
  return found!;
}

/** No header on the page (the site's or the dashboard's) links to the dashboard by that name. */
async function expectNoDashboardLinkInHeaders(page: Page) {
  await expect(page.locator("header").getByRole("link", { name: "Dashboard", exact: true })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
}

test.describe("the dashboard chrome", () => {
  let account: TestAccount;

  test.beforeEach(async ({ page, request }) => {
    account = { ...newAccount("chrome"), firstName: "Grace", lastName: "Hopper" };
    await registerByApi(request, account);
    await page.setViewportSize(PHONE);
    await signInWithForm(page, account);
  });

  test("the footer offers a signed-in owner their own pages, not sign-up or sign-in", async ({ page }) => {
    await page.goto("/dashboard");
    const footer = page.locator("footer").last();
    const account = footer.getByRole("navigation", { name: "Account" });
    await expect(account.getByRole("link", { name: "Your tags" })).toHaveAttribute("href", "/dashboard/tags");
    await expect(account.getByRole("link", { name: "Your profile" })).toHaveAttribute("href", "/dashboard/account");
    await expect(footer.getByRole("link", { name: "Create an account" })).toHaveCount(0);
    await expect(footer.getByRole("link", { name: "Sign in" })).toHaveCount(0);
    // The site's pages keep offering them to visitors.
    await page.goto("/shop");
    await expect(page.locator("footer").last().getByRole("link", { name: "Create an account" })).toBeVisible();
  });

  test("on a phone: one compact bar and one row of tabs above the content", async ({ page }, testInfo) => {
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Hello, Grace" })).toBeVisible();
    const { avatar, sections, content } = chrome(page);

    await test.step("the chrome above the content is under 120 px", async () => {
      expect((await box(content)).y).toBeLessThan(120);
      expect((await box(page.locator("main header"))).height).toBeLessThanOrEqual(57);
      await expect(avatar).toHaveText("GH");
      await expect(page.getByRole("link", { name: "Notifications, 0 unread" })).toBeVisible();
      await expectNoDashboardLinkInHeaders(page);
      await expectNoHorizontalScroll(page, PHONE.width);
    });

    await test.step("the sections are one row that scrolls sideways, never a second line", async () => {
      const tabs = sections.getByRole("link");
      await expect(tabs).toHaveCount(9);
      const tops = await tabs.evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
      expect(new Set(tops).size, `tab tops ${tops.join(", ")}`).toBe(1);
      const row = sections.getByRole("list");
      const { scrollWidth, clientWidth } = await row.evaluate((list) => ({ scrollWidth: list.scrollWidth, clientWidth: list.clientWidth }));
      expect(scrollWidth).toBeGreaterThan(clientWidth);
      expect((await box(sections)).height).toBeLessThanOrEqual(56);
      await expect(sections.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
    });

    await test.step("a tab focused from the keyboard shows its whole focus outline inside the row", async () => {
      const overview = sections.getByRole("link", { name: "Overview" });
      await waitForHydration(overview);
      await avatar.focus();
      // The bar's last control is the avatar; the next stop is the first tab.
      await page.keyboard.press("Tab");
      await expect(overview).toBeFocused();
      const room = await overview.evaluate((link) => {
        const style = getComputedStyle(link);
        const ring = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
        const list = link.closest("ul")!.getBoundingClientRect();
        const own = link.getBoundingClientRect();
        return { outline: style.outlineStyle, ring, above: own.top - list.top, below: list.bottom - own.bottom, left: own.left - list.left };
      });
      expect(room.outline).toBe("solid");
      expect(room.above).toBeGreaterThanOrEqual(room.ring);
      expect(room.below).toBeGreaterThanOrEqual(room.ring);
      expect(room.left).toBeGreaterThanOrEqual(room.ring);
      await expectRenderedScreenshot(page, testInfo, "dashboard-overview-390", { fullPage: false });
    });

    await test.step("the avatar menu by keyboard: Enter opens it, Escape closes it and focus returns", async () => {
      await waitForHydration(avatar);
      await avatar.focus();
      await page.keyboard.press("Enter");
      const menuEmail = page.locator("details").getByText(account.email);
      await expect(menuEmail).toBeVisible();
      await page.keyboard.press("Tab");
      await expect(page.locator("details").getByRole("link", { name: "Account", exact: true })).toBeFocused();
      await expectRenderedScreenshot(page, testInfo, "dashboard-account-menu-390", { fullPage: false });
      await page.keyboard.press("Escape");
      await expect(menuEmail).toBeHidden();
      await expect(avatar).toBeFocused();
    });

    await test.step("a click elsewhere closes the menu", async () => {
      await avatar.click();
      await expect(page.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
      await page.mouse.click(10, PHONE.height - 100);
      await expect(page.getByRole("button", { name: "Sign out", exact: true })).toBeHidden();
    });

    await test.step("the current tab is scrolled into view on a later section", async () => {
      await sections.getByRole("link", { name: "Notifications", exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard\/notifications$/);
      await page.goto("/dashboard/account");
      const current = sections.getByRole("link", { name: "Account" });
      await expect(current).toHaveAttribute("aria-current", "page");
      await waitForHydration(current);
      await expect.poll(async () => {
        const { x, width } = await box(current);
        return x >= 0 && x + width <= PHONE.width;
      }).toBe(true);
      await expectNoDashboardLinkInHeaders(page);
    });

    await test.step("sign out from the menu", async () => {
      await avatar.click();
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await expect(page).toHaveURL(/\/login\?notice=signed-out$/);
      await page.goto("/dashboard");
      await expect(page).toHaveURL(/\/login\?next=/);
    });
  });

  test("without JavaScript the avatar menu opens and signs out", async ({ page, browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE, storageState: await page.context().storageState() });
    try {
      const plain = await context.newPage();
      await plain.goto("/dashboard");
      const { avatar } = chrome(plain);
      await avatar.click();
      await expect(plain.locator("details").getByText(account.email)).toBeVisible();
      await plain.getByRole("button", { name: "Sign out", exact: true }).click();
      await expect(plain).toHaveURL(/\/login\?notice=signed-out$/);
    } finally {
      await context.close();
    }
  });

  test("on a desktop: the sections beside the content, which uses the width", async ({ page }, testInfo) => {
    await page.setViewportSize(DESKTOP);
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Hello, Grace" })).toBeVisible();
    const { sections, content } = chrome(page);
    const side = await box(sections);
    const main = await box(content);
    expect(side.x + side.width).toBeLessThanOrEqual(main.x);
    expect(main.y - side.y).toBeLessThan(60);
    expect(main.width).toBeGreaterThanOrEqual(960);
    const tops = await sections.getByRole("link").evaluateAll((links) => links.map((link) => link.getBoundingClientRect().top));
    expect(new Set(tops).size, "one link per line").toBe(tops.length);
    await expectNoDashboardLinkInHeaders(page);
    await expectRenderedScreenshot(page, testInfo, "dashboard-overview-1280", { fullPage: false });

    // The menu leads to the public site, whose header is back and offers the dashboard instead of "Sign in".
    await chrome(page).avatar.click();
    await page.getByRole("link", { name: "Tag Service home" }).click();
    await expect(page).toHaveURL(/\/$/);
    const mainNav = page.getByRole("navigation", { name: "Main" });
    await expect(mainNav.getByRole("link", { name: "Dashboard" })).toBeVisible();
    await expect(mainNav.getByRole("link", { name: "Sign in" })).toHaveCount(0);
    // …and back in (a client-side navigation: the root layout stays, the site header still goes).
    await mainNav.getByRole("link", { name: "Dashboard" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Hello, Grace" })).toBeVisible();
    await expectNoDashboardLinkInHeaders(page);
    await expect(chrome(page).avatar).toBeVisible();
  });
});
