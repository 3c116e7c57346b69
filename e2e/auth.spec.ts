import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, mailboxLink, newAccount, registerByApi, signInWithForm, signOutFromMenu } from "./support/accounts";
import { totpCode } from "./support/totp";

test.describe("sign-up, e-mail confirmation, sign-in with two-factor, sessions", () => {
  test("the whole journey in the browser", async ({ page, browser }, testInfo) => {
    test.setTimeout(180_000);
    const account = newAccount("journey");

    await test.step("sign up: errors are tied to their fields, then the dashboard asks to confirm the e-mail", async () => {
      await page.goto("/register");
      await expect(page.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
      const submit = page.getByRole("button", { name: "Create account" });
      await waitForHydration(submit);
      await submit.click();

      await expect(page.getByRole("alert").filter({ hasText: "Check the fields marked below." })).toBeVisible();
      const firstName = page.getByLabel("First name");
      await expect(firstName).toHaveAttribute("aria-invalid", "true");
      await expect(firstName).toHaveAccessibleDescription(/Required/);
      await expect(firstName).toBeFocused();
      const email = page.getByLabel("E-mail address");
      await expect(email).toHaveAccessibleDescription(/valid e-mail address/);

      // A mistake in another field keeps the password typed: it is not asked for a second time.
      await page.getByLabel("Password").fill(account.password);
      await Promise.all([page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/register"), submit.click()]);
      await expect(firstName).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Password")).toHaveValue(account.password);

      await firstName.fill(account.firstName);
      await page.getByLabel("Last name").fill(account.lastName);
      await email.fill(account.email);
      const password = page.getByLabel("Password");
      await password.fill("weakpass");
      await submit.click();
      await expect(password).toHaveAttribute("aria-invalid", "true");
      await expect(password).toHaveAccessibleDescription(/uppercase letter/);
      // The fields that were fine keep their values.
      await expect(page.getByLabel("E-mail address")).toHaveValue(account.email);
      await expectRenderedScreenshot(page, testInfo, "register-errors");

      await password.fill(account.password);
      await submit.click();
      await expect(page).toHaveURL(/\/dashboard\?welcome=1$/);
      await expect(page.getByRole("heading", { level: 1, name: `Welcome, ${account.firstName}` })).toBeVisible();
      const notice = page.getByRole("region", { name: "Confirm your e-mail address" });
      await expect(notice).toContainText(account.email);
      // Signed in, the dashboard's own bar replaces the site header (dashboard-chrome.spec.ts has the rest).
      await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
      await expect(page.getByLabel(`Account menu for ${account.email}`)).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "dashboard-unconfirmed");

      await notice.getByRole("button", { name: "Send a new link" }).click();
      await expect(notice.getByRole("status").filter({ hasText: "on its way" })).toBeVisible();
    });

    await test.step("confirm the e-mail through the development mailbox, with an explicit button", async () => {
      await page.goto(`/dev/mailbox?to=${encodeURIComponent(account.email)}`);
      // Two messages: the one sent at sign-up and the one asked for again, which replaced its link.
      const verifyLinks = page.getByRole("link", { name: /\/verify-email\?token=/ });
      await expect(async () => {
        await page.reload();
        await expect(verifyLinks).toHaveCount(2, { timeout: 1_000 });
      }).toPass({ timeout: 30_000 });
      // The newest message comes first; the older one's link was replaced.
      const replacedLink = (await verifyLinks.last().getAttribute("href"))!;
      await verifyLinks.first().click();

      await expect(page).toHaveURL(/\/verify-email\?token=/);
      await expect(page.getByRole("heading", { level: 1, name: "Confirm your e-mail address" })).toBeVisible();
      const confirm = page.getByRole("button", { name: "Confirm my e-mail address" });
      await waitForHydration(confirm);
      await confirm.click();
      await expect(page.getByRole("status").filter({ hasText: "Your e-mail address is confirmed." })).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "verify-email-confirmed");

      // The same link a second time, and the older link it replaced: the address is confirmed already,
      // which is what the page says when it opens, with no button and no error.
      const confirmedLink = page.url();
      for (const link of [confirmedLink, replacedLink]) {
        await page.goto(link);
        await expect(page.getByRole("status").filter({ hasText: "Your e-mail address is already confirmed." })).toBeVisible();
        await expect(page.getByRole("alert").filter({ hasText: "invalid" })).toHaveCount(0);
        await expect(page.getByRole("button", { name: "Confirm my e-mail address" })).toHaveCount(0);
        await expect(page.getByRole("link", { name: "Go to your dashboard" })).toBeVisible();
      }
      await expectRenderedScreenshot(page, testInfo, "verify-email-already-confirmed");

      // A link the site never sent still fails.
      await page.goto("/verify-email?token=not-a-link-we-sent");
      const confirmUnknown = page.getByRole("button", { name: "Confirm my e-mail address" });
      await waitForHydration(confirmUnknown);
      await confirmUnknown.click();
      await expect(page.getByRole("alert").filter({ hasText: "invalid, has expired or was already used" })).toBeVisible();

      await page.goto("/dashboard");
      await expect(page.getByRole("heading", { level: 1, name: `Hello, ${account.firstName}` })).toBeVisible();
      await expect(page.getByRole("region", { name: "Confirm your e-mail address" })).toHaveCount(0);
    });

    await test.step("sign out, a wrong password, then sign in", async () => {
      await signOutFromMenu(page);
      await expect(page).toHaveURL(/\/login\?notice=signed-out$/);
      await expect(page.getByRole("status").filter({ hasText: "You are signed out." })).toBeVisible();

      const submit = page.getByRole("button", { name: "Sign in" });
      await waitForHydration(submit);
      await page.getByLabel("E-mail address").fill(account.email);
      await page.getByLabel("Password", { exact: true }).fill("Not-the-password-1");
      await submit.click();
      await expect(page.getByRole("alert").filter({ hasText: "The e-mail address or password is incorrect." })).toBeVisible();
      await expect(page.getByLabel("E-mail address")).toHaveValue(account.email);
      await expectRenderedScreenshot(page, testInfo, "login-wrong-password");

      await page.getByLabel("Password", { exact: true }).fill(account.password);
      await submit.click();
      await expect(page).toHaveURL(/\/dashboard$/);
    });

    let backupCodes: string[] = [];
    let secret = "";
    await test.step("turn on two-factor: QR code and key shown, code from the key, ten backup codes once", async () => {
      await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Account" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Profile" })).toBeVisible();
      await page.getByRole("navigation", { name: "Account settings" }).getByRole("link", { name: "Two-factor" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Two-factor authentication" })).toBeVisible();

      const start = page.getByRole("button", { name: "Set up two-factor authentication" });
      await waitForHydration(start);
      await start.click();
      await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Connect your authenticator app" })).toBeFocused();
      const key = page.locator("#two-factor-secret");
      await expect(page.getByText("Set-up key", { exact: true })).toBeVisible();
      secret = ((await key.textContent()) ?? "").replace(/\s+/g, "");
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      // A phone cannot scan its own screen: the same key opens the authenticator app as a link.
      const openInApp = page.getByRole("link", { name: "Open in authenticator app" });
      await expect(openInApp).toHaveAttribute("href", new RegExp(`^otpauth://totp/.*[?&]secret=${secret}(&|$)`));
      await expectRenderedScreenshot(page, testInfo, "two-factor-setup");

      const code = page.getByLabel("6-digit code");
      await code.fill("12345");
      await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
      await expect(code).toHaveAccessibleDescription(/6-digit code/);
      await expect(code).toBeFocused();

      await code.fill(await totpCode(secret));
      await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
      await expect(page.getByRole("heading", { name: "Save your backup codes" })).toBeFocused();
      const codes = page.getByRole("list", { name: "Backup codes" }).getByRole("listitem");
      await expect(codes).toHaveCount(10);
      backupCodes = await codes.allInnerTexts();
      for (const backupCode of backupCodes) expect(backupCode.trim()).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
      await expect(page.getByText("They are shown only now")).toBeVisible();
      await expect(page.getByRole("heading", { name: "Status: on" })).toBeVisible();
      await expect(page.getByText("Status: off")).toHaveCount(0);
      await expectRenderedScreenshot(page, testInfo, "two-factor-backup-codes");

      await page.getByRole("link", { name: "I have saved them" }).click();
      await expect(page.getByRole("heading", { name: "Status: on" })).toBeVisible();
      await expect(page.getByRole("list", { name: "Backup codes" })).toHaveCount(0);
    });

    await test.step("sign out and sign in again with a code, without retyping the password", async () => {
      await signOutFromMenu(page);
      await expect(page).toHaveURL(/\/login/);
      const submit = page.getByRole("button", { name: "Sign in" });
      await waitForHydration(submit);
      await page.getByLabel("E-mail address").fill(account.email);
      await page.getByLabel("Password", { exact: true }).fill(account.password);
      await submit.click();

      await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
      await expect(page.getByText(`Signing in as ${account.email}`)).toBeVisible();
      const code = page.getByLabel("Authentication code");
      await expect(code).toBeFocused();
      await expectRenderedScreenshot(page, testInfo, "login-code-step");

      await code.fill("000000");
      await page.getByRole("button", { name: "Verify and sign in" }).click();
      await expect(code).toHaveAttribute("aria-invalid", "true");
      await expect(code).toHaveAccessibleDescription(/invalid or was already used/);
      await expect(page.getByText(`Signing in as ${account.email}`)).toBeVisible();

      // The set-up used this time step's code; the next step's code is within the accepted window.
      await code.fill(await totpCode(secret, 1));
      await page.getByRole("button", { name: "Verify and sign in" }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole("heading", { level: 1, name: `Hello, ${account.firstName}` })).toBeVisible();
    });

    await test.step("a second device signs in with a backup code; the first revokes its session", async () => {
      const other = await browser.newContext();
      try {
        const otherPage = await other.newPage();
        await otherPage.goto("/login");
        const submit = otherPage.getByRole("button", { name: "Sign in" });
        await waitForHydration(submit);
        await otherPage.getByLabel("E-mail address").fill(account.email);
        await otherPage.getByLabel("Password", { exact: true }).fill(account.password);
        await submit.click();
        await otherPage.getByLabel("Authentication code").fill(backupCodes[0]!.toLowerCase());
        await otherPage.getByRole("button", { name: "Verify and sign in" }).click();
        await expect(otherPage).toHaveURL(/\/dashboard$/);

        await page.goto("/dashboard/account/sessions");
        await expect(page.getByRole("heading", { level: 1, name: "Sessions" })).toBeVisible();
        const rows = page.getByRole("region", { name: /Signed in on/ }).getByRole("listitem");
        await expect(rows).toHaveCount(2);
        const current = rows.filter({ hasText: "This device" });
        await expect(current).toHaveCount(1);
        await expect(current.getByRole("button", { name: "Sign out" })).toBeVisible();
        await expectRenderedScreenshot(page, testInfo, "sessions-two-devices");

        const otherRow = rows.filter({ hasNotText: "This device" });
        await otherRow.getByRole("button", { name: /^Revoke/ }).click();
        await expect(page.getByRole("status").filter({ hasText: "The session was revoked" })).toBeVisible();
        await expect(rows).toHaveCount(1);
        await expect(page.getByRole("button", { name: "Sign out everywhere else" })).toHaveCount(0);

        // The revoked device is signed out at its next request.
        await otherPage.goto("/dashboard/account");
        await expect(otherPage).toHaveURL(/\/login\?next=/);
        await expect(otherPage.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
      } finally {
        await other.close();
      }
    });
  });

  test("a sign-in link with ?next= returns there, and only to this site", async ({ page, request }) => {
    const account = newAccount("next");
    await registerByApi(request, account);

    await page.goto("/dashboard/account/password");
    await expect(page).toHaveURL(/\/login\?next=/);
    await waitForHydration(page.getByRole("button", { name: "Sign in" }));
    await page.getByLabel("E-mail address").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/dashboard\/account\/password$/);
    await signOutFromMenu(page);
    await expect(page).toHaveURL(/\/login\?notice=signed-out$/);

    await page.goto("/login?next=%2F%2Fevil.example%2Fsteal");
    await waitForHydration(page.getByRole("button", { name: "Sign in" }));
    await page.getByLabel("E-mail address").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("forgot password: the e-mailed link sets a new password and signs every device out", async ({ page, request }, testInfo) => {
    const account = newAccount("reset");
    await registerByApi(request, account);
    await signInWithForm(page, account);

    const other = await page.context().browser()!.newContext();
    try {
      const otherPage = await other.newPage();
      await otherPage.goto("/forgot-password");
      await expect(otherPage.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();
      const send = otherPage.getByRole("button", { name: "Send the reset link" });
      await waitForHydration(send);
      await otherPage.getByLabel("E-mail address").fill(account.email);
      await send.click();
      await expect(otherPage.getByRole("status").filter({ hasText: "If an account exists for this address" })).toBeVisible();
      await expectRenderedScreenshot(otherPage, testInfo, "forgot-password-sent");

      const link = await mailboxLink(request, account.email, "/reset-password");
      await otherPage.goto(link);
      await expect(otherPage.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
      const newPassword = otherPage.getByLabel("New password", { exact: true });
      await expect(newPassword).toHaveAccessibleDescription(/At least 8 characters/);
      const save = otherPage.getByRole("button", { name: "Set the new password" });
      await waitForHydration(save);
      await newPassword.fill("New-password-42");
      await otherPage.getByLabel("Repeat the new password").fill("New-password-43");
      await save.click();
      await expect(otherPage.getByLabel("Repeat the new password")).toHaveAccessibleDescription(/do not match/);
      await expectRenderedScreenshot(otherPage, testInfo, "reset-password-mismatch");

      await newPassword.fill("New-password-42");
      await otherPage.getByLabel("Repeat the new password").fill("New-password-42");
      await save.click();
      await expect(otherPage).toHaveURL(/\/login\?notice=password-reset$/);
      await expect(otherPage.getByRole("status").filter({ hasText: "Your password has been reset" })).toBeVisible();

      // The link is single use.
      await otherPage.goto(link);
      await otherPage.getByLabel("New password", { exact: true }).fill("Another-password-7");
      await otherPage.getByLabel("Repeat the new password").fill("Another-password-7");
      await otherPage.getByRole("button", { name: "Set the new password" }).click();
      await expect(otherPage.getByRole("alert").filter({ hasText: "invalid, has expired or was already used" })).toBeVisible();
    } finally {
      await other.close();
    }

    // The reset ended the session of the first browser.
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?next=/);
    await signInWithForm(page, { email: account.email, password: "New-password-42" });
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

    test("the sign-in and sign-up pages fit 375 px and work with the keyboard", async ({ page }, testInfo) => {
      await page.goto("/login");
      await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectRenderedScreenshot(page, testInfo, "login-phone");

      const email = page.getByLabel("E-mail address");
      await waitForHydration(page.getByRole("button", { name: "Sign in" }));
      await email.focus();
      await page.keyboard.press("Tab");
      await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
      await page.keyboard.press("Tab");
      await expect(page.getByRole("link", { name: "Forgot your password?" })).toBeFocused();
      await page.keyboard.press("Tab");
      await expect(page.getByRole("button", { name: "Sign in" })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(email).toBeFocused();
      await expect(email).toHaveAccessibleDescription(/Enter your e-mail address/);
      await expectNoHorizontalScroll(page);
      await expectRenderedScreenshot(page, testInfo, "login-phone-errors");

      await page.goto("/register");
      await expect(page.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectRenderedScreenshot(page, testInfo, "register-phone");

      await page.goto("/forgot-password");
      await expectNoHorizontalScroll(page);
      await page.goto("/reset-password?token=example");
      await expect(page.getByLabel("New password", { exact: true })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await page.goto("/verify-email?token=example");
      await expect(page.getByRole("button", { name: "Confirm my e-mail address" })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectRenderedScreenshot(page, testInfo, "verify-email-phone");
    });
  });
});
