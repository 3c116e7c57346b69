import { expect, expectRenderedScreenshot, test } from "./support/fixtures";
import { expectNoHorizontalScroll, newAccount, registerByApi, signInWithForm } from "./support/accounts";

const PHONE = { width: 390, height: 844 };

/**
 * Upgrading to PRO the way a customer does: the billing page's Upgrade opens the built-in test provider's
 * hosted checkout, Pay sends its signed events to this server's own webhook (APP_URL is the server's base
 * URL), and the provider sends the browser back to the billing page, which shows PRO once the webhook's
 * job has processed the events. Then the plan is cancelled at the end of its period.
 */
test("upgrade to PRO through the test provider's checkout, then cancel at period end", async ({ page, request }, testInfo) => {
  const account = newAccount("billing");
  await registerByApi(request, account);
  await page.setViewportSize(PHONE);
  await signInWithForm(page, account);

  // The overview's plan card leads to billing.
  await page.getByRole("link", { name: "Plans and billing" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing$/);
  await expect(page.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();
  const plan = page.getByRole("region", { name: "Your plan" });
  await expect(plan).toContainText("Free");
  await expect(plan).toContainText("0 of 5 tags used");
  await expect(page.getByRole("region", { name: "Invoices" })).toContainText("No payments yet.");
  await expectNoHorizontalScroll(page, PHONE.width);
  await expectRenderedScreenshot(page, testInfo, "billing-free");

  await plan.getByRole("button", { name: "Upgrade to Pro" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Subscribe $4.99");
  await page.getByRole("button", { name: /^Pay/ }).click();

  await expect(page).toHaveURL(/\/dashboard\/billing\?checkout=success$/);
  // The webhook answered at once; its job applies the subscription a moment later.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("region", { name: "Your plan" })).toContainText("0 of 50 tags used", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole("status").filter({ hasText: "you are on the Pro plan" })).toBeVisible();
  await expect(plan).toContainText("Pro");
  await expect(plan).toContainText(/Renews on/);
  const invoices = page.getByRole("list", { name: "Invoices" });
  await expect(invoices.getByRole("listitem")).toHaveCount(1);
  await expect(invoices).toContainText("Pro plan");
  await expect(invoices).toContainText("$4.99");
  await expectNoHorizontalScroll(page, PHONE.width);
  await expectRenderedScreenshot(page, testInfo, "billing-pro");

  // Cancel asks first, saying until when the plan stays.
  await plan.getByRole("link", { name: "Cancel at period end" }).click();
  const confirm = page.getByRole("region", { name: "Cancel your Pro plan?" });
  await expect(confirm).toContainText(/stays active until/);
  await expectRenderedScreenshot(page, testInfo, "billing-cancel-confirm");
  await confirm.getByRole("button", { name: "Yes, cancel at period end" }).click();

  await expect(page).toHaveURL(/\/dashboard\/billing\?notice=cancelled$/);
  await expect(page.getByRole("status").filter({ hasText: "Your plan will not renew." })).toContainText(/stays active until/);
  await expect(plan).toContainText("Pro");
  await expect(plan).toContainText(/Cancelled: ends on/);
  await expect(plan.getByRole("link", { name: "Cancel at period end" })).toHaveCount(0);
  await expectRenderedScreenshot(page, testInfo, "billing-cancelled");

  // The same through the API: PRO until the period's end, which no longer renews.
  const billing = await page.request.get("/api/v1/orders/billing");
  expect(billing.status()).toBe(200);
  const { data } = (await billing.json()) as { data: { subscription: { tier: string; status: string; cancelAtPeriodEnd: boolean }; tagLimit: number } };
  expect(data).toMatchObject({ subscription: { tier: "PRO", status: "ACTIVE", cancelAtPeriodEnd: true }, tagLimit: 50 });
});
