import { randomInt } from "node:crypto";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, signInWithForm } from "./support/accounts";
import { finderContext, lostTag, PHONE } from "./support/finder";

/**
 * The phone relay's pages (docs/relay.md): the owner proves a phone with the texted code (read from the
 * development phone, GET /api/dev/phone), turns the relay on for a lost tag, and the finder's page at
 * 390×844 offers the tel: and sms: links with the relay's number and the tag's PIN; with the relay off it
 * shows nothing about phones.
 */
test("the owner verifies a phone and turns the relay on; the finder's page offers call and text with the PIN, and nothing when off", async ({ browser, page, playwright }, testInfo) => {
  test.setTimeout(120_000);
  const tag = await lostTag(playwright);
  const ownerNumber = `+49151${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
  const context = await finderContext(browser);
  const finder = await context.newPage();
  try {
    await test.step("before the relay is on, the finder's page says nothing about phones", async () => {
      await finder.goto(`/t/${tag.encryptedId}`);
      await expect(finder.getByRole("heading", { level: 1, name: "Rex's collar" })).toBeVisible();
      await expect(finder.getByRole("heading", { name: "Call or text the owner" })).toHaveCount(0);
      expect(await finder.content()).not.toMatch(/href="(tel|sms):/);
    });

    await test.step("the owner verifies a phone with the texted code", async () => {
      await signInWithForm(page, tag.owner);
      await page.goto("/dashboard/account");
      const numberForm = page.getByRole("form", { name: "Your phone number" });
      const send = numberForm.getByRole("button", { name: "Send code" });
      await waitForHydration(send);
      await numberForm.getByLabel("Mobile number").fill(ownerNumber);
      await send.click();
      const codeForm = page.getByRole("form", { name: "Confirm your number" });
      await expect(codeForm).toBeVisible();
      let code: string | undefined;
      await expect
        .poll(async () => {
          const response = await page.request.get(`/api/dev/phone?number=${encodeURIComponent(ownerNumber)}`);
          const body = (await response.json()) as { data: { body: string | null }[] };
          return (code = body.data[0]?.body?.match(/\b(\d{6})\b/)?.[1]);
        })
        .toBeTruthy();
      await codeForm.getByLabel("Code").fill(code!);
      await codeForm.getByRole("button", { name: "Confirm" }).click();
      await expect(page.getByTestId("relay-phone-verified")).toContainText(`•••• ${ownerNumber.slice(-2)}`);
      expect(await page.content()).not.toContain(ownerNumber.slice(3));
    });

    let relayNumber = "";
    let pin = "";
    await test.step("the owner turns the relay on for the lost tag", async () => {
      await page.goto(`/dashboard/tags/${tag.tagId}`);
      const relayForm = page.getByRole("form", { name: "Relay settings" });
      const save = relayForm.getByRole("button", { name: "Save relay settings" });
      await waitForHydration(save);
      await relayForm.getByRole("checkbox", { name: "Let finders call or text me through the relay" }).check();
      await save.click();
      await expect(relayForm.getByText(/^The relay is on\./)).toBeVisible();
      const settings = page.getByTestId("relay-settings");
      await expect(settings).toBeVisible();
      const values = await settings.locator("dd").allTextContents();
      relayNumber = values[0]!.trim();
      pin = values[1]!.trim();
      expect(relayNumber).toMatch(/^\+\d{8,15}$/);
      expect(pin).toMatch(/^\d{6}$/);
    });

    await test.step("the finder's page at 390×844 offers the tel: and sms: links with the number and the PIN", async () => {
      await finder.reload();
      await expect(finder.getByRole("heading", { name: "Call or text the owner" })).toBeVisible();
      await expect(finder.getByRole("link", { name: "Call the owner", exact: true })).toHaveAttribute("href", `tel:${relayNumber},,${pin}`);
      // The same call under the item's name, after "Message the owner".
      await expect(finder.getByTestId("relay-call-top")).toHaveAttribute("href", `tel:${relayNumber},,${pin}`);
      await expect(finder.getByRole("link", { name: "Text the owner" })).toHaveAttribute("href", `sms:${relayNumber}?&body=${pin}%20`);
      await expect(finder.getByTestId("relay-pin")).toHaveText(pin);
      const html = await finder.content();
      expect(html).not.toContain(ownerNumber.slice(3));
      expect(html).not.toContain("600111222");
      await expectNoHorizontalScroll(finder, PHONE.width);
      await expectRenderedScreenshot(finder, testInfo, "relay-finder-390");
    });

    await test.step("turned off, the finder's page shows no phone block again", async () => {
      const relayForm = page.getByRole("form", { name: "Relay settings" });
      await relayForm.getByRole("checkbox", { name: "Let finders call or text me through the relay" }).uncheck();
      await relayForm.getByRole("button", { name: "Save relay settings" }).click();
      await expect(relayForm.getByText(/^The relay is off/)).toBeVisible();
      await finder.reload();
      await expect(finder.getByRole("heading", { level: 1, name: "Rex's collar" })).toBeVisible();
      await expect(finder.getByTestId("finder-relay")).toHaveCount(0);
      expect(await finder.content()).not.toMatch(/href="(tel|sms):/);
    });
  } finally {
    await context.close();
  }
});
