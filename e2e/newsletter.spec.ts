import type { Page } from "@playwright/test";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, mailboxLink, newAccount, signInWithForm } from "./support/accounts";
import { e2eAdmin } from "./support/server-env";

/** Subscribes through the footer's form on the home page and waits for its answer. */
async function subscribeInFooter(page: Page, email: string) {
  await page.goto("/");
  const form = page.getByRole("form", { name: "Subscribe to the newsletter" });
  const button = form.getByRole("button", { name: "Subscribe" });
  await waitForHydration(button);
  await form.getByLabel("Your address for the newsletter").fill(email);
  await button.click();
  await expect(form.getByRole("status")).toContainText("Check your inbox");
  return form;
}

test.describe("contact form and newsletter on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

  test("the contact form sends a message and promises a reply within 24 hours", async ({ page }, testInfo) => {
    await page.goto("/contact");
    await expect(page.getByRole("heading", { level: 1, name: "Contact us" })).toBeVisible();
    const form = page.getByRole("form", { name: "Contact us" });
    const send = form.getByRole("button", { name: "Send message" });
    await waitForHydration(send);
    await expectNoHorizontalScroll(page, 390);

    await send.click();
    await expect(form.getByRole("alert")).toContainText("Check the fields marked below.");
    await expect(form.getByText("Required.").first()).toBeVisible();
    await expectRenderedScreenshot(page, testInfo, "contact-errors");

    const sender = newAccount("contact").email;
    await form.getByLabel("Your name").fill("Ada Lovelace");
    await form.getByLabel("Your e-mail address").fill(sender);
    await form.getByLabel("Subject").fill("Stickers in the dishwasher");
    await form.getByLabel("Message").fill("Do the stickers survive a dishwasher?");
    await send.click();
    await expect(page.getByRole("status").filter({ hasText: "we reply within 24 hours" })).toBeVisible();
    await expectRenderedScreenshot(page, testInfo, "contact-sent");
    await mailboxLink(page.request, sender, "/");
  });

  test("two readers subscribe and confirm, an admin sends a campaign to both, and one unsubscribes", async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    const readers = [newAccount("reader-one").email, newAccount("reader-two").email];
    const subject = `Spring news ${Date.now().toString(36)}`;

    await test.step("both subscribe in the footer and confirm through the e-mailed link", async () => {
      for (const [index, email] of readers.entries()) {
        await subscribeInFooter(page, email);
        if (index === 0) await expectRenderedScreenshot(page, testInfo, "newsletter-subscribed");
        await page.goto(await mailboxLink(page.request, email, "/newsletter/confirm"));
        await expect(page.getByRole("status")).toContainText("Your subscription is confirmed.");
        if (index === 0) await expectRenderedScreenshot(page, testInfo, "newsletter-confirmed");
      }
    });

    await test.step("an admin composes with a live preview, confirms and watches the campaign complete", async () => {
      await signInWithForm(page, e2eAdmin);
      await page.goto("/admin/campaigns");
      await expect(page.getByRole("heading", { level: 1, name: "Campaigns" })).toBeVisible();
      const form = page.getByRole("form", { name: "New campaign" });
      const send = form.getByRole("button", { name: "Send campaign" });
      await waitForHydration(send);
      await form.getByLabel("Subject").fill(subject);
      await form.getByLabel("Content (Markdown)").fill("## Five new colours\n\nOur tags now come in **five colours**.\n\n- Red\n- Blue");
      const preview = page.getByTestId("campaign-preview");
      await expect(preview.getByRole("heading", { level: 2, name: "Five new colours" })).toBeVisible();
      await expect(preview.locator("strong")).toHaveText("five colours");
      await expect(form).toContainText(/Send this campaign now to \d+ confirmed subscribers?/);

      await send.click();
      await expect(form.getByText("Tick the box to confirm sending")).toBeVisible();
      await form.getByRole("checkbox").check();
      await send.click();
      await expect(page).toHaveURL(/notice=sending/);
      const item = page.getByRole("list", { name: "Campaigns" }).getByRole("listitem").filter({ hasText: subject });
      // The page refreshes itself while a campaign sends.
      await expect(item).toHaveAttribute("data-campaign-status", "SENT", { timeout: 60_000 });
      await expect(item).toContainText(/(\d+) of \1 sent \(100%\)/);
      await expectNoHorizontalScroll(page, 390);
      await expectRenderedScreenshot(page, testInfo, "campaign-sent");
    });

    await test.step("both mailboxes receive it; the unsubscribe link's button unsubscribes", async () => {
      const links = [];
      for (const email of readers) links.push(await mailboxLink(page.request, email, "/newsletter/unsubscribe"));
      await page.goto(links[0]!);
      const button = page.getByRole("button", { name: "Unsubscribe" });
      await waitForHydration(button);
      await expectRenderedScreenshot(page, testInfo, "unsubscribe-page");
      await button.click();
      await expect(page.getByRole("status").filter({ hasText: "You are unsubscribed." })).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "unsubscribed");
      const mailbox = await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent(readers[1]!)}`);
      const messages = ((await mailbox.json()) as { data: { subject: string; headers: Record<string, string> }[] }).data;
      const campaign = messages.find((message) => message.subject === subject);
      expect(campaign?.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    });
  });
});
