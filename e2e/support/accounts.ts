import { randomBytes } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, waitForHydration } from "./fixtures";

export interface TestAccount {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/** A new, unique account's details (not yet registered). */
export function newAccount(label: string): TestAccount {
  const id = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  return { firstName: "Ada", lastName: "Lovelace", email: `e2e-${label}-${id}@example.com`, password: `Pw-${randomBytes(6).toString("hex")}-9A` };
}

/** Registers through the API (the same service the sign-up page calls); the browser is not signed in. */
export async function registerByApi(request: APIRequestContext, account: TestAccount): Promise<void> {
  const response = await request.post("/api/v1/auth/register", {
    data: { email: account.email, password: account.password, firstName: account.firstName, lastName: account.lastName },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** Signs in through the sign-in page (one step: no two-factor) and waits for the dashboard. */
export async function signInWithForm(page: Page, account: Pick<TestAccount, "email" | "password">, path = "/login"): Promise<void> {
  await page.goto(path);
  await waitForHydration(page.getByRole("button", { name: "Sign in" }));
  await page.getByLabel("E-mail address").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
}

/**
 * The newest link in the development mailbox for `to` whose path starts with `pathPrefix`, waiting for
 * the e-mail job to deliver it.
 */
export async function mailboxLink(request: APIRequestContext, to: string, pathPrefix: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/dev/mailbox?to=${encodeURIComponent(to)}`);
        if (!response.ok()) return undefined;
        const body = (await response.json()) as { data: { text: string }[] };
        for (const message of body.data) {
          const match = message.text
            .match(/https?:\/\/[^\s<>"]+/g)
            ?.map((url) => url.replace(/[.,;)\]]+$/, ""))
            .find((url) => new URL(url).pathname.startsWith(pathPrefix));
          if (match) return (link = match);
        }
        return undefined;
      },
      { message: `an e-mail to ${to} with a ${pathPrefix} link`, timeout: 30_000 },
    )
    .toBeTruthy();
  return link!;
}

/**
 * Confirms the account's e-mail address as its holder would, in `page` (signed in or not): the link from
 * the development mailbox, then the confirmation page's button.
 */
export async function confirmEmailWithMailbox(page: Page, account: Pick<TestAccount, "email">): Promise<void> {
  await page.goto(await mailboxLink(page.request, account.email, "/verify-email"));
  const confirm = page.getByRole("button", { name: "Confirm my e-mail address" });
  await waitForHydration(confirm);
  await confirm.click();
  await expect(page.getByRole("status").filter({ hasText: "Your e-mail address is confirmed." })).toBeVisible();
}

/** Nothing on the page is wider than the viewport. */
export async function expectNoHorizontalScroll(page: Page, width = 375): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/**
 * Signs out the way a person does in the dashboard: the avatar in the bar opens the account menu (a
 * <details>, so no hydration is needed), which holds the Sign out button.
 */
export async function signOutFromMenu(page: Page): Promise<void> {
  await page.getByLabel(/^Account menu for /).click();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
}
