import type { Page } from "@playwright/test";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, newAccount, registerByApi, signInWithForm } from "./support/accounts";
import { PHONE } from "./support/finder";
import { e2eAdmin } from "./support/server-env";

const DESKTOP = { width: 1280, height: 800 };

/** Finds the user's row on /admin/users by searching for their e-mail address with the filter form. */
async function searchUser(page: Page, email: string) {
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
  await page.getByLabel("E-mail or name").fill(email);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/search=/);
  await expect(page.getByRole("status").filter({ hasText: "1 user." })).toBeVisible();
  return page.locator(`tr[data-user-email="${email}"]`);
}

test.describe("admin platform pages", () => {
  test("minting keeps the chosen tag type for the next batch", async ({ page }) => {
    await signInWithForm(page, e2eAdmin);
    await page.goto("/admin/tags");
    const form = page.getByRole("form", { name: "Mint tags" });
    const submit = form.getByRole("button", { name: "Mint tags" });
    await waitForHydration(submit);
    await form.getByLabel("How many").fill("2");
    await form.getByLabel("Type").selectOption("PET");
    await submit.click();
    await expect(form.getByRole("alert").or(form.getByRole("status")).filter({ hasText: "2 tags were minted." })).toBeVisible();
    await expect(page.getByRole("list", { name: "Minted codes" }).getByRole("listitem")).toHaveCount(2);
    // It used to fall back to "General item" after each batch, so a second click minted the wrong kind.
    await expect(form.getByLabel("Type")).toHaveValue("PET");
    await expect(form.getByLabel("How many")).toHaveValue("2");
  });

  test("an admin sees the charts, finds a user and suspends them (their session ends), then lifts it; the super admin reads it in the audit log", async ({ browser, playwright }, testInfo) => {
    test.setTimeout(240_000);
    const superContext = await browser.newContext({ viewport: DESKTOP });
    const adminContext = await browser.newContext({ viewport: DESKTOP });
    const userContext = await browser.newContext({ viewport: DESKTOP });
    const superPage = await superContext.newPage();
    const adminPage = await adminContext.newPage();
    const userPage = await userContext.newPage();
    const admin = newAccount("platform-admin");
    const user = newAccount("platform-user");
    // Each registration in a request context of its own: the cookie it sets must not ride along with the next.
    for (const account of [admin, user]) {
      const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
      await registerByApi(api, account);
      await api.dispose();
    }

    await test.step("the super admin makes a new account an ADMIN with the role select", async () => {
      await signInWithForm(superPage, e2eAdmin);
      const row = await searchUser(superPage, admin.email);
      await row.getByLabel("Role", { exact: true }).selectOption("ADMIN");
      await row.getByRole("button", { name: "Change role" }).click();
      await expect(superPage).toHaveURL(/notice=role-changed/);
      await expect(superPage.getByRole("status").filter({ hasText: "The role is changed." })).toBeVisible();
      await expect(superPage.locator(`tr[data-user-email="${admin.email}"]`).getByLabel("Role", { exact: true })).toHaveValue("ADMIN");
    });

    await test.step("the admin opens the overview: stat cards and four daily charts; no audit log for an ADMIN", async () => {
      await signInWithForm(adminPage, admin);
      await adminPage.goto("/admin");
      await expect(adminPage.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
      const nav = adminPage.getByRole("navigation", { name: "Admin" });
      await expect(nav.getByRole("link", { name: "Users" })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(0);
      for (const title of ["Scans", "Sign-ups", "Orders placed", "Revenue (USD)"]) {
        const chart = adminPage.getByRole("figure", { name: new RegExp(`^${title.replace(/[()]/g, "\\$&")}`) });
        await expect(chart).toBeVisible();
        await expect(chart.getByRole("img")).toHaveAttribute("aria-label", /over 30 days/);
      }
      // Today's sign-ups include the two accounts of this test.
      const today = new Date().toISOString().slice(0, 10);
      const signupsToday = Number(await adminPage.locator(`[data-chart="chart-signups"] [data-date="${today}"]`).getAttribute("data-value"));
      expect(signupsToday).toBeGreaterThanOrEqual(2);
      await expectRenderedScreenshot(adminPage, testInfo, "admin-overview-1280");
      await adminPage.setViewportSize(PHONE);
      await expectNoHorizontalScroll(adminPage, PHONE.width);
      await expectRenderedScreenshot(adminPage, testInfo, "admin-overview-390");
      await adminPage.setViewportSize(DESKTOP);

      await adminPage.locator("#range-from").fill("2020-01-01");
      await adminPage.locator("#range-to").fill("2020-01-07");
      await adminPage.getByRole("button", { name: "Show" }).click();
      await expect(adminPage.getByRole("heading", { name: "Daily activity, 2020-01-01 to 2020-01-07" })).toBeVisible();
      await expect(adminPage.locator('[data-chart="chart-scans"] [data-date]')).toHaveCount(7);

      const response = await adminPage.goto("/admin/audit-log");
      expect(response?.status()).toBe(404);
    });

    await test.step("the user is signed in; the admin searches them and suspends them; their next page is the sign-in", async () => {
      await signInWithForm(userPage, user);
      await expect(userPage).toHaveURL(/\/dashboard/);

      const row = await searchUser(adminPage, user.email);
      await expect(row.locator("[data-user-status]")).toHaveText("Active");
      await expect(row.getByLabel("Role", { exact: true })).toHaveCount(0);
      await row.getByText("Suspend…").click();
      const confirm = row.getByRole("button", { name: "Confirm suspension" });
      await expect(confirm).toBeVisible();
      await confirm.click();
      await expect(adminPage).toHaveURL(/notice=suspended/);
      await expect(adminPage.getByRole("status").filter({ hasText: "The account is suspended" })).toBeVisible();
      await expect(adminPage.locator(`tr[data-user-email="${user.email}"] [data-user-status]`)).toHaveText("Suspended");

      await userPage.goto("/dashboard");
      await expect(userPage).toHaveURL(/\/login/);
    });

    await test.step("the admin lifts the suspension; the user signs in again", async () => {
      const row = adminPage.locator(`tr[data-user-email="${user.email}"]`);
      const unsuspend = row.getByRole("button", { name: "Unsuspend" });
      await waitForHydration(unsuspend);
      await unsuspend.click();
      await expect(adminPage).toHaveURL(/notice=unsuspended/);
      await expect(adminPage.locator(`tr[data-user-email="${user.email}"] [data-user-status]`)).toHaveText("Active");
      await signInWithForm(userPage, user);
    });

    await test.step("on a phone the user list stacks into cards without sideways scrolling", async () => {
      await adminPage.setViewportSize(PHONE);
      await searchUser(adminPage, user.email);
      await expectNoHorizontalScroll(adminPage, PHONE.width);
      await expectRenderedScreenshot(adminPage, testInfo, "admin-users-390");
      await adminPage.setViewportSize(DESKTOP);
      await expectRenderedScreenshot(adminPage, testInfo, "admin-users-1280");
    });

    await test.step("the super admin reads the suspension and its lifting in the audit log, with the changed field marked", async () => {
      await superPage.goto("/admin/audit-log?action=user.update");
      await expect(superPage.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
      await expect(superPage.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Audit log" })).toHaveAttribute("aria-current", "page");
      const entries = superPage.getByRole("listitem").filter({ hasText: admin.email });
      await expect(entries).toHaveCount(2);
      const suspension = entries.nth(1);
      await expect(suspension.getByRole("heading", { name: "User role or suspension changed" })).toBeVisible();
      await expect(suspension.locator('tr[data-changed="true"]')).toHaveCount(1);
      await expect(suspension.locator('tr[data-changed="true"] th')).toHaveText(/suspendedAt\s*\(changed\)/);
      await expect(suspension.locator('tr[data-changed="true"] td').first()).toHaveText("null");
      await expectRenderedScreenshot(superPage, testInfo, "admin-audit-log-1280");
      await superPage.setViewportSize(PHONE);
      await expectNoHorizontalScroll(superPage, PHONE.width);
      await expectRenderedScreenshot(superPage, testInfo, "admin-audit-log-390");
    });

    await superContext.close();
    await adminContext.close();
    await userContext.close();
  });
});
