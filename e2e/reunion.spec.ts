import type { APIRequestContext } from "@playwright/test";
import { expectNoHorizontalScroll } from "./support/accounts";
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

test.describe("the reunion loop on a phone", () => {
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
        await waitForHydration(send);
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
