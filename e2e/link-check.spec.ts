import { devices, type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { newAccount, signInWithForm, type TestAccount } from "./support/accounts";
import { apiData, bearerApi, lostTag } from "./support/finder";
import { e2eBaseUrl } from "./support/server-env";

/**
 * No link the app shows in its chrome or sends by e-mail leads to a missing page. Each link is followed
 * (redirects included) with the credentials its reader would have, and must end on a page that answers
 * below 400; a link to a fragment must also find its target on that page.
 */

interface MailboxMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Same-origin links only: absolute, without duplicates, in the order found. */
function appLinks(hrefs: string[]): string[] {
  const links = new Set<string>();
  for (const href of hrefs) {
    if (!href || href.startsWith("mailto:") || href.startsWith("tel:") || href.startsWith("geo:")) continue;
    const url = new URL(href, e2eBaseUrl);
    if (url.origin !== new URL(e2eBaseUrl).origin) continue;
    links.add(url.toString());
  }
  return [...links];
}

/** Every href of the links inside `selector` on the current page. */
async function hrefsIn(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).getAttribute("href") ?? ""));
}

/**
 * Follows one link with `request` (a signed-in page's request shares its cookies) and checks where it
 * ends. A fragment is checked on the page itself: the element it names must be there.
 */
async function expectLinkWorks(page: Page, request: APIRequestContext, link: string, options: { signedIn?: boolean } = {}) {
  const response = await request.get(link, { maxRedirects: 10 });
  expect(response.status(), `${link} → ${response.url()}`).toBeLessThan(400);
  if (options.signedIn && new URL(link).pathname.startsWith("/dashboard")) {
    // Signed in, a dashboard link must reach its page, not the sign-in form that hides whether it exists.
    expect(new URL(response.url()).pathname, `${link} → ${response.url()}`).not.toBe("/login");
  }
  const fragment = new URL(link).hash.slice(1);
  if (fragment) {
    await page.goto(link);
    await expect(page.locator(`[id="${fragment}"]`), `${link}: the #${fragment} target`).toHaveCount(1);
  }
}

async function expectAllWork(page: Page, links: string[], options: { signedIn?: boolean } = {}) {
  expect(links.length, "links found").toBeGreaterThan(0);
  for (const link of links) await expectLinkWorks(page, page.request, link, options);
}

test.describe("link check", () => {
  test("every link in the site header and footer, the dashboard's bar, menu and section navigation leads to a page", async ({ page, request }) => {
    test.setTimeout(120_000);

    await test.step("signed out: the site header (desktop and phone menu) and footer", async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto("/");
      const desktop = await hrefsIn(page, "body > header a, footer a");
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await page.getByRole("button", { name: "Menu" }).click();
      const phone = await hrefsIn(page, "body > header a");
      const links = appLinks([...desktop, ...phone]);
      for (const path of ["/", "/shop", "/found", "/blog", "/careers", "/contact", "/privacy", "/docs", "/login", "/register"]) expect(links).toContain(new URL(path, e2eBaseUrl).toString());
      await expectAllWork(page, links);
    });

    const account = newAccount("links");
    await test.step("signed in: the dashboard's bar, its avatar menu, the section navigation and the footer", async () => {
      const registered = await request.post("/api/v1/auth/register", {
        data: { email: account.email, password: account.password, firstName: account.firstName, lastName: account.lastName },
      });
      expect(registered.status()).toBe(201);
      await page.setViewportSize({ width: 1280, height: 800 });
      await signInWithForm(page, account);
      await page.goto("/dashboard");
      await page.getByLabel(/^Account menu for /).click();
      const chrome = await hrefsIn(page, "main header a, nav[aria-label='Dashboard'] a, details a, footer a");
      const links = appLinks(chrome);
      for (const path of ["/dashboard", "/dashboard/tags", "/dashboard/messages", "/dashboard/notifications", "/dashboard/account"]) {
        expect(links).toContain(new URL(path, e2eBaseUrl).toString());
      }
      await expectAllWork(page, links, { signedIn: true });

      // The public site's header once signed in offers the dashboard instead of "Sign in".
      await page.goto("/");
      const siteLinks = appLinks(await hrefsIn(page, "body > header a"));
      expect(siteLinks).toContain(new URL("/dashboard", e2eBaseUrl).toString());
      await expectAllWork(page, siteLinks, { signedIn: true });
    });
  });

  test("every link in every kind of e-mail the app sends leads to a page", async ({ page, browser, playwright, request }) => {
    test.setTimeout(240_000);
    const tag = await lostTag(playwright);
    const owner: TestAccount = tag.owner;
    const auth = { Authorization: `Bearer ${tag.token}` };
    const finderA = `e2e-finder-a-${Date.now().toString(36)}@example.com`;
    const finderB = `e2e-finder-b-${Date.now().toString(36)}@example.com`;
    const recipient = `e2e-recipient-${Date.now().toString(36)}@example.com`;
    const newPassword = `${owner.password}-new`;

    await test.step("the owner, two finders and a transfer recipient are e-mailed by everything that mails", async () => {
      // A finder's phone scans the lost tag (a real scan: the owner is told), then two finders write.
      const phone = devices["iPhone 13"].userAgent;
      const scan = await request.get(`/api/v1/scan/${tag.encryptedId}`, { headers: { "User-Agent": phone } });
      expect(scan.status()).toBe(200);
      const threadA = await apiData<{ threadToken: string }>(
        await request.post(`/api/v1/scan/${tag.encryptedId}/contact`, { data: { message: "I found Rex near the station.", finderEmail: finderA }, headers: { "User-Agent": phone } }),
        201,
      );
      await apiData(
        await request.post(`/api/v1/scan/${tag.encryptedId}/contact`, { data: { message: "Is this your dog? He is with me.", finderEmail: finderB }, headers: { "User-Agent": phone } }),
        201,
      );
      await bearerApi(playwright, async (api) => {
        // The owner answers the first finder (a reply e-mail to that finder), then offers a reward (the
        // second finder, whose e-mail slot is free, hears of it), and fills in the emergency profile.
        const threads = await apiData<{ id: string; lastMessage: string }[]>(await api.get("/api/v1/messages", { headers: auth }), 200);
        const first = threads.find((thread) => thread.lastMessage.includes("near the station"));
        expect(first, "the first finder's conversation").toBeTruthy();
        await apiData(await api.post(`/api/v1/messages/${first!.id}/reply`, { data: { content: "Thank you! I can come now." }, headers: auth }), 201);
        await apiData(await api.post(`/api/v1/rewards/${tag.tagId}`, { data: { amount: 40, currency: "EUR" }, headers: auth }), 201);
        await apiData(await api.put("/api/v1/emergency", { data: { bloodType: "A+", allergies: ["Penicillin"] }, headers: auth }), 200);
        await apiData(await api.post("/api/v1/emergency/contacts", { data: { name: "Luis Lopez", relationship: "Brother", phone: "+34600555666" }, headers: auth }), 201);
        await apiData(await api.post(`/api/v1/tags/${tag.tagId}/transfer`, { data: { email: recipient }, headers: auth }), 201);
        await apiData(await api.post("/api/v1/auth/change-password", { data: { currentPassword: owner.password, newPassword }, headers: auth }), 200);
      });
      // A first responder opens the emergency information; the owner asks for a reset link.
      expect((await request.get(`/api/v1/scan/${tag.encryptedId}/emergency`, { headers: { "User-Agent": phone } })).status()).toBe(200);
      expect((await request.post("/api/v1/auth/forgot-password", { data: { email: owner.email } })).status()).toBe(200);
      expect(threadA.threadToken).toBeTruthy();
    });

    async function mailFor(to: string, subjects: RegExp[]): Promise<MailboxMessage[]> {
      let messages: MailboxMessage[] = [];
      await expect
        .poll(
          async () => {
            const response = await request.get(`/api/dev/mailbox?to=${encodeURIComponent(to)}`);
            messages = ((await response.json()) as { data: MailboxMessage[] }).data;
            return subjects.filter((subject) => !messages.some((message) => subject.test(message.subject))).map(String);
          },
          { message: `the e-mails to ${to}`, timeout: 60_000 },
        )
        .toEqual([]);
      return messages;
    }

    // One of every template: confirmation, reset, notices, notifications of five types, and the finder's e-mails.
    const ownerMail = await mailFor(owner.email, [
      /^Confirm your e-mail address$/,
      /^Reset your password$/,
      /^Your password was changed$/,
      /tag was scanned/,
      /^New message about /,
      /^Reward active$/,
      /^Your emergency information was opened$/,
    ]);
    const finderMail = [...(await mailFor(finderA, [/^The owner replied to your message$/])), ...(await mailFor(finderB, [/^News about the reward/]))];
    const recipientMail = await mailFor(recipient, [/^A tag is being transferred to you$/]);

    /** Every link of an e-mail: the HTML's hrefs and the plain-text part's URLs. */
    const linksOf = (messages: MailboxMessage[]) =>
      appLinks(
        messages.flatMap((message) => [
          ...[...message.html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!.replaceAll("&amp;", "&")),
          ...(message.text.match(/https?:\/\/[^\s<>"\]]+/g) ?? []).map((url) => url.replace(/[.,;)]+$/, "")),
        ]),
      );

    await test.step("the owner's e-mails, followed signed in as the owner", async () => {
      await signInWithForm(page, { email: owner.email, password: newPassword });
      const links = linksOf(ownerMail);
      expect(links.some((link) => link.includes("/verify-email?token="))).toBe(true);
      expect(links.some((link) => link.includes("/reset-password?token="))).toBe(true);
      expect(links.some((link) => link.includes("/dashboard/notifications/preferences"))).toBe(true);
      expect(links.filter((link) => /\/dashboard\/notifications\/[^/]+\/open$/.test(link)).length).toBeGreaterThanOrEqual(4);
      await expectAllWork(page, links, { signedIn: true });
    });

    await test.step("the finders' and the recipient's e-mails, followed by people with no account here", async () => {
      const context = await browser.newContext({ baseURL: e2eBaseUrl });
      try {
        const stranger = await context.newPage();
        const links = [...linksOf(finderMail), ...linksOf(recipientMail)];
        expect(links.filter((link) => link.includes("/thread?token=")).length).toBeGreaterThanOrEqual(1);
        await expectAllWork(stranger, links);
      } finally {
        await context.close();
      }
    });
  });
});
