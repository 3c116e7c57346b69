import type { APIRequestContext, Page } from "@playwright/test";
import { expectNoHorizontalScroll, signInWithForm } from "./support/accounts";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { apiData, bearerApi, finderContext, lostTag, PHONE, type OwnedTag, type RequestFactory } from "./support/finder";

/**
 * The reunion loop (docs/reunion.md) at a phone's size: a stranger finds the dog, talks to the owner,
 * hands it back with their own code and is thanked. The owner's side goes through the API here where
 * the point is the finder's page; the dashboard's side is walked in the first test.
 */

const auth = (tag: OwnedTag) => ({ Authorization: `Bearer ${tag.token}` });

async function offerReward(playwright: RequestFactory, tag: OwnedTag, amount = 50) {
  await bearerApi(playwright, async (api) => apiData(await api.post(`/api/v1/rewards/${tag.tagId}`, { data: { amount, currency: "EUR" }, headers: auth(tag) }), 201));
}

async function ownerReplies(api: APIRequestContext, tag: OwnedTag, content: string) {
  const threads = await apiData<{ id: string }[]>(await api.get("/api/v1/messages", { headers: auth(tag) }), 200);
  expect(threads).toHaveLength(1);
  await apiData(await api.post(`/api/v1/messages/${threads[0]!.id}/reply`, { data: { content }, headers: auth(tag) }), 201);
}

async function confirmWithCode(api: APIRequestContext, tag: OwnedTag, handoverCode: string) {
  return apiData<{ confirmation: string }>(await api.post(`/api/v1/rewards/confirm-return/${tag.tagId}`, { data: { handoverCode }, headers: auth(tag) }), 200);
}

/** Map tiles come from openstreetmap.org, which this machine cannot reach: a blank tile stands in. */
const BLANK_TILE = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=", "base64");
async function offlineTiles(page: Page) {
  await page.route("https://tile.openstreetmap.org/**", (route) => route.fulfill({ status: 200, contentType: "image/png", body: BLANK_TILE }));
}

test.describe("the reunion loop on a phone", () => {
  test("two finders and the owner: lost mode with a reward in one form, a live reply, a place on the owner's map, the right finder's code, the certificate", async ({ browser, page, playwright }, testInfo) => {
    test.setTimeout(240_000);
    const tag = await lostTag(playwright, { lost: false });
    await page.setViewportSize(PHONE);
    await offlineTiles(page);
    const tagPage = `/dashboard/tags/${tag.tagId}`;

    await test.step("the owner turns on lost mode with a message and a reward, in one form with one button", async () => {
      await signInWithForm(page, tag.owner);
      await page.goto(tagPage);
      await page.getByText("I lost it").click();
      const form = page.getByRole("form", { name: "Turn on lost mode" });
      const turnOn = form.getByRole("button", { name: "Turn on lost mode" });
      await waitForHydration(turnOn);
      await form.getByLabel("Message for finders").fill("Rex ran off in the park. He is friendly.");
      await form.getByLabel("Amount").fill("40");
      await form.getByLabel("Currency").selectOption("EUR");
      await turnOn.click();
      await expect(page).toHaveURL(/notice=lost-on-reward/);
      const mode = page.getByRole("region", { name: "Lost mode is on" });
      await expect(mode.getByTestId("reward-amount")).toHaveText("€40.00");
      // Short on a phone: the rarely used rest starts within about three screens.
      const more = page.getByText(/^More: /);
      const box = (await more.boundingBox())!;
      const scrollTop = await page.evaluate(() => window.scrollY);
      expect(box.y + scrollTop, "the top of \"More\" on the tag page").toBeLessThanOrEqual(3.25 * PHONE.height);
      await expectNoHorizontalScroll(page, PHONE.width);
      await expectRenderedScreenshot(page, testInfo, "reunion-owner-lost-mode-390");
    });

    // Ana really has Rex, in a park in Madrid; the other "finder" wants money first.
    const ana = await finderContext(browser, { timezoneId: "Europe/Madrid", geolocation: { latitude: 40.4153, longitude: -3.6845, accuracy: 12 } });
    const other = await finderContext(browser);
    const anaPage = await ana.newPage();
    const otherPage = await other.newPage();
    const anaConversation = anaPage.getByRole("list", { name: "Your conversation with the owner" });
    try {
      await test.step("both finders scan and write; each conversation shows its own handover code", async () => {
        for (const [finder, name, text] of [
          [anaPage, "Ana", "I have Rex here in the Retiro park, he is safe."],
          [otherPage, "", "Send me a gift card first and I will tell you where the dog is."],
        ] as const) {
          await finder.goto(`/t/${tag.encryptedId}`);
          await expect(finder.getByTestId("finder-reward")).toContainText("Reward offered: €40.00");
          const send = finder.getByRole("button", { name: "Send message" });
          if (name) await finder.getByRole("textbox", { name: /Your name/ }).fill(name);
          await finder.getByRole("textbox", { name: "Your message" }).fill(text);
          await send.click();
          await expect(finder).toHaveURL(/\/thread\/[A-Za-z0-9_-]{43}\?sent=1$/);
          await expect(finder.getByTestId("handover-code")).toHaveText(/^\d{6}$/);
        }
        expect(await anaPage.getByTestId("handover-code").textContent()).not.toBe(await otherPage.getByTestId("handover-code").textContent());
        await expect(anaPage.getByTestId("thread-time-zone")).toContainText("Europe/Madrid");
        await expectRenderedScreenshot(anaPage, testInfo, "reunion-finder-thread-390");
      });

      await test.step("the owner answers Ana; her page shows the reply without a reload", async () => {
        const live = anaPage.waitForResponse((response) => /\/api\/v1\/scan\/thread\/[^/]+\/stream$/.test(response.url()) && response.status() === 200);
        await anaPage.goto(anaPage.url().replace(/\?.*$/, ""));
        await live;
        await page.goto("/dashboard/messages");
        const conversations = page.getByRole("list", { name: "Conversations, most recent first" });
        await expect(conversations.getByRole("listitem")).toHaveCount(2);
        await conversations.getByRole("link", { name: /Ana/ }).click();
        const form = page.getByRole("form", { name: "Reply to the finder" });
        const send = form.getByRole("button", { name: "Send reply" });
        await waitForHydration(send);
        await form.getByLabel("Your reply").fill("Thank you Ana! Can you tell me exactly where you are?");
        await send.click();
        await expect(page.getByRole("status").filter({ hasText: "Your reply was sent." })).toBeVisible();
        await expect(anaConversation).toContainText("Can you tell me exactly where you are?", { timeout: 5_000 });
      });

      await test.step("Ana shares where she is from the conversation; both sides see it, the owner on a map", async () => {
        const share = anaPage.getByRole("button", { name: "Share my location" });
        await waitForHydration(share);
        await share.click();
        await expect(anaPage.getByText("Your location was added to the conversation.")).toBeVisible();
        await expect(anaConversation.locator("li[data-location]")).toHaveCount(1);
        await expect(anaConversation.getByTestId("shared-location")).toContainText("Shared location");

        const messages = page.getByRole("list", { name: "Messages, oldest first" });
        // The open conversation refreshes itself when the finder's place arrives.
        await expect(messages.locator("li[data-location]")).toHaveCount(1, { timeout: 10_000 });
        await expect(messages.getByTestId("shared-location")).toContainText("Shared their location");
        const map = page.getByRole("region", { name: "Map of shared locations" });
        await map.scrollIntoViewIfNeeded();
        await expect(map).toHaveAttribute("data-map-state", "ready");
        await expect(map.locator(".map-place-shared")).toHaveCount(1);
        const places = page.getByRole("list", { name: "Shared locations and scans" });
        await expect(places.getByRole("link", { name: "Open in OpenStreetMap" }).first()).toHaveAttribute("href", /mlat=40\.4153/);
        // Both sides give the same instant for Ana's first message, each in its own zone.
        const anaFirst = await anaConversation.locator("time").first().getAttribute("datetime");
        const ownerFirst = await messages.locator("time").first().getAttribute("datetime");
        expect(anaFirst).toBe(ownerFirst);
        await expectNoHorizontalScroll(page, PHONE.width);
        await expectRenderedScreenshot(page, testInfo, "reunion-owner-conversation-map-390");
      });

      await test.step("at the meeting the owner enters Ana's code: Ana is thanked and given the certificate; the other conversation is told the dog is home", async () => {
        const code = (await anaPage.getByTestId("handover-code").textContent())!;
        await page.getByRole("region", { name: "Reward: €40.00" }).getByRole("link", { name: "Confirm the return with the code" }).click();
        const form = page.getByRole("region", { name: "Reward", exact: true }).getByRole("form", { name: "Confirm the return" });
        const confirm = form.getByRole("button", { name: "Confirm the return" });
        await waitForHydration(confirm);
        await form.getByLabel(/Finder's handover code/).fill(code);
        await confirm.click();
        await expect(page.getByText("Return confirmed with the finder's handover code.")).toBeVisible();

        await anaPage.reload();
        await expect(anaPage.getByTestId("finder-reward-state")).toContainText("confirmed the return with your handover code");
        await otherPage.reload();
        await expect(otherPage.getByTestId("finder-reward-state")).toHaveAttribute("data-outcome", "ITEM_BACK");
        await expect(otherPage.getByText("The item is back with its owner, so this conversation is now closed.")).toBeVisible();
        await expect(otherPage.getByRole("link", { name: "See the certificate of return" })).toHaveCount(0);

        await anaPage.getByRole("link", { name: "See the certificate of return" }).click();
        await expect(anaPage.getByRole("heading", { level: 1, name: "Certificate of return" })).toBeVisible();
        await expectNoHorizontalScroll(anaPage, PHONE.width);
        await expectRenderedScreenshot(anaPage, testInfo, "reunion-certificate-390");
      });
    } finally {
      await ana.close();
      await other.close();
    }
  });
  test("without JavaScript: message, a real reload shows the reply, the code, the return confirmed with it, the certificate", async ({ browser, playwright }, testInfo) => {
    test.setTimeout(120_000);
    const tag = await lostTag(playwright);
    await offerReward(playwright, tag);
    const context = await finderContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    const conversation = page.getByRole("list", { name: "Your conversation with the owner" });
    try {
      await test.step("the scan page puts the message first and works without scripts", async () => {
        await page.goto(`/t/${tag.encryptedId}`);
        await expect(page.getByTestId("finder-reward")).toContainText("Reward offered: €50.00");
        await page.getByRole("textbox", { name: "Your message" }).fill("I have your dog at the café by the river.");
        await page.getByRole("button", { name: "Send message" }).click();
        await expect(page).toHaveURL(/\/thread\/[A-Za-z0-9_-]{43}\?sent=1$/);
        await expect(conversation).toContainText("I have your dog at the café by the river.");
      });

      const code = (await page.getByTestId("handover-code").textContent()) ?? "";
      expect(code).toMatch(/^\d{6}$/);

      await test.step("\"Check for replies\" is a real reload that shows the owner's answer", async () => {
        await bearerApi(playwright, (api) => ownerReplies(api, tag, "Wonderful, I am on my way!"));
        await expect(conversation).not.toContainText("Wonderful, I am on my way!");
        const reload = page.waitForEvent("load");
        await page.getByRole("link", { name: "Check for replies" }).click();
        await reload;
        await expect(conversation).toContainText("Wonderful, I am on my way!");
      });

      await test.step("the finder asks to be e-mailed on reply, from the conversation, without scripts", async () => {
        const form = page.getByRole("form", { name: "Get an e-mail when the owner replies" });
        await form.getByRole("textbox", { name: "Your e-mail address" }).fill(`nojs-finder-${Date.now()}@example.com`);
        await form.getByRole("button", { name: "E-mail me on reply" }).click();
        await expect(page.getByText("Done: we will e-mail you when the owner replies.")).toBeVisible();
      });

      await test.step("the owner confirms with this finder's code: the finder is thanked and given the certificate", async () => {
        expect((await bearerApi(playwright, (api) => confirmWithCode(api, tag, code))).confirmation).toBe("HANDOVER_CODE");
        await page.reload();
        await expect(page.getByRole("region", { name: "Reward: €50.00" })).toContainText("confirmed the return with your handover code");
        await expect(page.getByTestId("handover-code")).toHaveCount(0);
        await expect(page.getByRole("link", { name: "See the certificate of return" })).toBeVisible();
        await expectNoHorizontalScroll(page, PHONE.width);
        // No rendered-screenshot check: it and axe run scripts in the page, which this context forbids.
        await testInfo.attach("reunion-nojs-confirmed-390", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
      });
    } finally {
      await context.close();
    }
  });

  test("in German: the page, the live reply, the code and the thanks speak the finder's language", async ({ browser, playwright }, testInfo) => {
    test.setTimeout(120_000);
    const tag = await lostTag(playwright);
    await offerReward(playwright, tag);
    const context = await finderContext(browser, { locale: "de-DE" });
    const page = await context.newPage();
    const conversation = page.getByRole("list", { name: "Ihr Gespräch mit dem Besitzer" });
    try {
      await test.step("the scan page in German, the reward explained (\"der Finderlohn … zahlt ihn\")", async () => {
        await page.goto(`/t/${tag.encryptedId}`);
        await expect(page.locator("html")).toHaveAttribute("lang", "de");
        await expect(page.getByText("VERLOREN: Der Besitzer sucht danach")).toBeVisible();
        await expect(page.getByTestId("finder-reward")).toContainText(/Finderlohn: 50,00\s€/);
        await expect(page.getByTestId("finder-reward")).toContainText("Der Besitzer zahlt ihn");
        await expectRenderedScreenshot(page, testInfo, "reunion-de-scan-390");
      });

      await test.step("the message is sent and the conversation opens in German", async () => {
        const send = page.getByRole("button", { name: "Nachricht senden" });
        await page.getByRole("textbox", { name: "Ihre Nachricht" }).fill("Ich habe Ihren Hund am Bahnhof gefunden.");
        await send.click();
        await expect(page).toHaveURL(/\/thread\/[A-Za-z0-9_-]{43}\?sent=1$/);
        await expect(page.getByRole("heading", { level: 1, name: "Nachricht gesendet. Der Besitzer wurde benachrichtigt." })).toBeVisible();
        await expect(conversation).toContainText("Ich habe Ihren Hund am Bahnhof gefunden.");
        await expect(page.getByRole("region", { name: /Finderlohn: 50,00\s€/ })).toContainText("Ihr Übergabecode");
      });

      await test.step("the owner's reply appears without a reload", async () => {
        const live = page.waitForResponse((response) => /\/api\/v1\/scan\/thread\/[^/]+\/stream$/.test(response.url()) && response.status() === 200);
        await page.reload();
        await live;
        await bearerApi(playwright, (api) => ownerReplies(api, tag, "Danke! Ich komme in zehn Minuten."));
        await expect(conversation).toContainText("Danke! Ich komme in zehn Minuten.", { timeout: 5_000 });
        await expect(conversation.getByText(/^Besitzer ·/)).toBeVisible();
      });

      await test.step("confirmed with this finder's code, the thanks and the certificate are in German", async () => {
        const code = (await page.getByTestId("handover-code").textContent()) ?? "";
        await bearerApi(playwright, (api) => confirmWithCode(api, tag, code));
        await page.reload();
        await expect(page.getByText(/Der Besitzer hat die Rückgabe mit Ihrem Übergabecode bestätigt\. Der Finderlohn von 50,00\s€ ist jetzt fällig\./)).toBeVisible();
        await expect(page.getByRole("link", { name: "Rückgabebescheinigung ansehen" })).toBeVisible();
        await expectNoHorizontalScroll(page, PHONE.width);
        await expectRenderedScreenshot(page, testInfo, "reunion-de-confirmed-390");
      });
    } finally {
      await context.close();
    }
  });
});
