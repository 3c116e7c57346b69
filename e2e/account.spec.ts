import { readFile } from "node:fs/promises";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, newAccount, registerByApi, signInWithForm, signOutFromMenu, type TestAccount } from "./support/accounts";
import { totpCode } from "./support/totp";

test.describe("the account area", () => {
  let account: TestAccount;

  test.beforeEach(async ({ page, request }) => {
    account = newAccount("account");
    await registerByApi(request, account);
    await signInWithForm(page, account);
  });

  test("edit the profile and change the password", async ({ page }, testInfo) => {
    await page.goto("/dashboard/account");
    await expect(page.getByRole("heading", { level: 1, name: "Profile" })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Account settings" });
    await expect(nav.getByRole("link", { name: "Profile" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Account" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("region", { name: "Account" })).toContainText(account.email);

    const form = page.getByRole("form", { name: "Name and phone" });
    const save = form.getByRole("button", { name: "Save profile" });
    await waitForHydration(save);
    await form.getByLabel("First name").fill("");
    await form.getByLabel("Phone number").fill("call me");
    await save.click();
    await expect(form.getByLabel("First name")).toBeFocused();
    await expect(form.getByLabel("First name")).toHaveAccessibleDescription(/Required/);
    await expect(form.getByLabel("Phone number")).toHaveAccessibleDescription(/Use digits/);
    await expectRenderedScreenshot(page, testInfo, "profile-errors");

    await form.getByLabel("First name").fill("Augusta");
    await form.getByLabel("Phone number").fill("+44 20 7946 0958");
    await save.click();
    await expect(form.getByRole("status").filter({ hasText: "Your profile is saved." })).toBeVisible();
    await expect(form.getByLabel("First name")).toHaveValue("Augusta");
    await expect(form.getByLabel("Phone number")).toHaveValue("+44 20 7946 0958");
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Overview" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Hello, Augusta" })).toBeVisible();

    await page.goto("/dashboard/account/password");
    await expect(page.getByRole("heading", { level: 1, name: "Password" })).toBeVisible();
    const change = page.getByRole("button", { name: "Change password" });
    await waitForHydration(change);
    await page.getByLabel("Current password").fill("Wrong-password-1");
    await page.getByLabel("New password", { exact: true }).fill("Changed-password-7");
    await page.getByLabel("Repeat the new password").fill("Changed-password-7");
    await change.click();
    await expect(page.getByLabel("Current password")).toHaveAccessibleDescription(/current password is incorrect/);
    await expect(page.getByLabel("Current password")).toBeFocused();

    await page.getByLabel("Current password").fill(account.password);
    await page.getByLabel("New password", { exact: true }).fill("Changed-password-7");
    await page.getByLabel("Repeat the new password").fill("Changed-password-7");
    await change.click();
    await expect(page.getByRole("status").filter({ hasText: "Your password has been changed" })).toBeVisible();
    await expectRenderedScreenshot(page, testInfo, "password-changed");

    // Still signed in here; the new password works for the next sign-in.
    await signOutFromMenu(page);
    await signInWithForm(page, { email: account.email, password: "Changed-password-7" });
  });

  test("create an API key shown once, use it, revoke it", async ({ page, request }, testInfo) => {
    await page.goto("/dashboard/account/api-keys");
    await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
    await expect(page.getByText("You have no API keys.")).toBeVisible();

    const create = page.getByRole("button", { name: "Create API key" });
    await waitForHydration(create);
    await create.click();
    await expect(page.getByLabel("Name")).toHaveAccessibleDescription(/Give the key a name/);

    await page.getByLabel("Name").fill("Inventory script");
    await create.click();
    const keyField = page.getByLabel("Your new API key");
    await expect(keyField).toBeVisible();
    await expect(keyField).toHaveAttribute("readonly", "");
    await expect(keyField).toHaveAccessibleDescription(/not shown again/);
    const key = await keyField.inputValue();
    expect(key).toMatch(/^tag_(dev|test|live)_[0-9A-Za-z]{32,}$/);

    const keys = page.getByRole("region", { name: "Your keys" }).getByRole("listitem");
    await expect(keys).toHaveCount(1);
    await expect(keys.first()).toContainText("Inventory script");
    await expect(keys.first()).toContainText(key.slice(-4));
    await expect(keys.first()).not.toContainText(key);
    await expectRenderedScreenshot(page, testInfo, "api-key-created");

    const me = await request.get("/api/v1/auth/me", { headers: { "X-API-Key": key } });
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { data: { email: string } }).data.email).toBe(account.email);

    // Shown once: a fresh page lists the key but not the secret.
    await page.reload();
    await expect(page.getByLabel("Your new API key")).toHaveCount(0);

    await keys.first().getByRole("button", { name: "Revoke the key Inventory script" }).click();
    await expect(page.getByRole("status").filter({ hasText: "The API key was revoked" })).toBeVisible();
    await expect(page.getByText("You have no API keys.")).toBeVisible();
    expect((await request.get("/api/v1/auth/me", { headers: { "X-API-Key": key } })).status()).toBe(401);
  });

  test("turn two-factor on, then off again with a backup code", async ({ page }, testInfo) => {
    await page.goto("/dashboard/account/two-factor");
    const start = page.getByRole("button", { name: "Set up two-factor authentication" });
    await waitForHydration(start);
    await start.click();
    await expect(page.locator("#two-factor-secret")).toBeVisible();
    const secret = ((await page.locator("#two-factor-secret").textContent()) ?? "").replace(/\s+/g, "");
    await page.getByLabel("6-digit code").fill(await totpCode(secret));
    await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
    const items = page.getByRole("list", { name: "Backup codes" }).getByRole("listitem");
    await expect(items).toHaveCount(10);
    const codes = await items.allInnerTexts();
    // The card's status follows the action at once, next to the codes: no stale "Status: off".
    await expect(page.getByRole("heading", { name: "Status: on" })).toBeVisible();
    await expect(page.getByText("Status: off")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Turn on two-factor authentication" })).toHaveCount(0);
    // Coming back through the account menu (a client-side navigation) shows the current status too.
    await page.getByRole("navigation", { name: "Account settings" }).getByRole("link", { name: "Profile" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Profile" })).toBeVisible();
    await page.getByRole("navigation", { name: "Account settings" }).getByRole("link", { name: "Two-factor" }).click();
    await expect(page.getByRole("heading", { name: "Status: on" })).toBeVisible();
    await expect(page.getByText("Status: off")).toHaveCount(0);

    const form = page.getByRole("form", { name: "Turn off two-factor authentication" });
    const turnOff = form.getByRole("button", { name: "Turn off two-factor" });
    await waitForHydration(turnOff);
    await form.getByLabel("Code from your app, or a backup code").fill("ZZZZ-ZZZZ");
    await turnOff.click();
    await expect(form.getByLabel("Code from your app, or a backup code")).toHaveAccessibleDescription(/invalid or was already used/);
    await expectRenderedScreenshot(page, testInfo, "two-factor-disable-error");

    await form.getByLabel("Code from your app, or a backup code").fill(codes[3]!);
    await turnOff.click();
    await expect(page.getByRole("status").filter({ hasText: "Two-factor authentication is off." })).toBeVisible();
    await expect(page.getByRole("button", { name: "Set up two-factor authentication" })).toBeVisible();
  });

  test("download the data export, then delete the account", async ({ page }, testInfo) => {
    await page.goto("/dashboard/account/data");
    await expect(page.getByRole("heading", { level: 1, name: "Your data" })).toBeVisible();
    await expectRenderedScreenshot(page, testInfo, "account-data");

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download my data (JSON)" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^tag-service-export-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await readFile((await download.path())!, "utf8")) as { user: { email: string }; sessions: unknown[]; exportedAt: string };
    expect(exported.user.email).toBe(account.email);
    expect(exported.sessions.length).toBeGreaterThan(0);
    expect(exported.exportedAt).toBeTruthy();

    const form = page.getByRole("form", { name: "Delete your account" });
    const remove = form.getByRole("button", { name: "Delete my account permanently" });
    await waitForHydration(remove);
    await form.getByLabel("Current password").fill(account.password);
    await form.getByLabel("Type DELETE to confirm").fill("delete");
    await remove.click();
    await expect(form.getByLabel("Type DELETE to confirm")).toHaveAccessibleDescription(/Type DELETE in capital letters/);
    await expect(form.getByLabel("Type DELETE to confirm")).toBeFocused();

    await form.getByLabel("Current password").fill("Wrong-password-1");
    await form.getByLabel("Type DELETE to confirm").fill("DELETE");
    await remove.click();
    await expect(form.getByLabel("Current password")).toHaveAccessibleDescription(/current password is incorrect/);
    await expectRenderedScreenshot(page, testInfo, "delete-account-errors");

    await form.getByLabel("Current password").fill(account.password);
    await form.getByLabel("Type DELETE to confirm").fill("DELETE");
    await remove.click();
    await expect(page).toHaveURL(/\/login\?notice=account-deleted$/);
    await expect(page.getByRole("status").filter({ hasText: "Your account and all its data have been deleted." })).toBeVisible();

    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?next=/);
    await waitForHydration(page.getByRole("button", { name: "Sign in" }));
    await page.getByLabel("E-mail address").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The e-mail address or password is incorrect." })).toBeVisible();
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

    test("every account page fits 375 px", async ({ page }, testInfo) => {
      const pages = [
        { path: "/dashboard", heading: "Hello, Ada", shot: "dashboard-phone" },
        { path: "/dashboard/account", heading: "Profile", shot: "profile-phone" },
        { path: "/dashboard/account/password", heading: "Password" },
        { path: "/dashboard/account/two-factor", heading: "Two-factor authentication", shot: "two-factor-phone" },
        { path: "/dashboard/account/sessions", heading: "Sessions", shot: "sessions-phone" },
        { path: "/dashboard/account/api-keys", heading: "API keys" },
        { path: "/dashboard/account/data", heading: "Your data", shot: "data-phone" },
      ];
      for (const { path, heading, shot } of pages) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        await expectNoHorizontalScroll(page);
        if (shot) await expectRenderedScreenshot(page, testInfo, shot);
      }

      // Two-factor set-up shows the QR code and the key within the width, too.
      await page.goto("/dashboard/account/two-factor");
      const start = page.getByRole("button", { name: "Set up two-factor authentication" });
      await waitForHydration(start);
      await start.click();
      await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectRenderedScreenshot(page, testInfo, "two-factor-setup-phone");
    });
  });
});
