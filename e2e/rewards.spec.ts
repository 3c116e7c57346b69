import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, signInWithForm } from "./support/accounts";
import { apiData, bearerApi, finderContext, lostTag, PHONE } from "./support/finder";

test.describe("rewards and the handover code", () => {
  test("offer → the finder sees the reward and the code → the owner confirms with the code → the certificate renders and prints", async ({ browser, page, playwright }, testInfo) => {
    test.setTimeout(180_000);
    const tag = await lostTag(playwright);
    await page.setViewportSize(PHONE);
    const panel = page.getByRole("region", { name: "Reward", exact: true });

    await test.step("the owner offers a reward in lost mode's one form; a note without an amount keeps what was typed", async () => {
      await signInWithForm(page, tag.owner);
      await page.goto(`/dashboard/tags/${tag.tagId}`);
      const form = page.getByRole("form", { name: "Lost mode" });
      const save = form.getByRole("button", { name: "Save message and reward" });
      await waitForHydration(save);
      await form.getByLabel(/Note to the finder/).fill("Rex is our family. Thank you!");
      await save.click();
      await expect(form.getByLabel("Amount")).toHaveAccessibleDescription(/Enter the amount, like 50\./);
      await expect(form.getByLabel(/Note to the finder/)).toHaveValue("Rex is our family. Thank you!");
      await form.getByLabel("Amount").fill("50");
      await form.getByLabel("Currency").selectOption("EUR");
      await save.click();
      await expect(page).toHaveURL(/notice=reward-offered/);
      await expect(page.getByText("The reward is offered.")).toBeVisible();
      await expect(panel.getByTestId("reward-amount")).toHaveText("€50.00");
      // The same form now changes the offered reward, folded away under its amount.
      await expect(page.getByRole("form", { name: "Lost mode" }).locator("summary", { hasText: "Change the reward (€50.00)" })).toBeVisible();
      await expect(panel.getByRole("button", { name: "Withdraw the offer" })).toBeVisible();
      await expect(panel.getByRole("button", { name: "Record the payment" })).toHaveCount(0);
      await expectNoHorizontalScroll(page, PHONE.width);
      await panel.scrollIntoViewIfNeeded();
      await expectRenderedScreenshot(page, testInfo, "reward-panel-offered-390", { fullPage: false });
    });

    const context = await finderContext(browser);
    const finder = await context.newPage();
    let code = "";
    try {
      await test.step("the finder sees the reward on the scan page and the code in the conversation", async () => {
        await finder.goto(`/t/${tag.encryptedId}`);
        await expect(finder.getByTestId("finder-reward")).toContainText("Reward offered: €50.00");
        await expect(finder.getByTestId("finder-reward")).toContainText("you never pay anything");
        expect(await finder.content()).not.toMatch(/handover-code/);
        await finder.getByRole("textbox", { name: "Your message" }).fill("I have Rex at the bakery on Main Street.");
        await finder.getByRole("button", { name: "Send message" }).click();
        await expect(finder).toHaveURL(/\/thread\/[A-Za-z0-9_-]{43}\?sent=1/);
        const card = finder.getByRole("region", { name: "Reward: €50.00" });
        await expect(card).toContainText("The owner offers a reward of €50.00.");
        await expect(card).toContainText("Rex is our family. Thank you!");
        await expect(card).toContainText("only when the item is in their hands");
        code = (await finder.getByTestId("handover-code").textContent()) ?? "";
        expect(code).toMatch(/^\d{6}$/);
        await expectNoHorizontalScroll(finder, PHONE.width);
        await expectRenderedScreenshot(finder, testInfo, "reward-finder-thread-390");
      });

      await test.step("a finder whose phone speaks Spanish reads the reward in Spanish", async () => {
        const spanish = await finderContext(browser, { locale: "es-ES" });
        try {
          const page = await spanish.newPage();
          await page.goto(`/t/${tag.encryptedId}`);
          await expect(page.getByTestId("finder-reward")).toContainText(/Recompensa ofrecida: 50,00\s€/);
          await expect(page.getByTestId("finder-reward")).toContainText("tú nunca pagas nada");
        } finally {
          await spanish.close();
        }
      });

      await test.step("the owner's conversation explains the code; a wrong code is refused beside the field", async () => {
        await page.goto("/dashboard/messages");
        await page.getByRole("list", { name: "Conversations, most recent first" }).getByRole("link").first().click();
        const reward = page.getByRole("region", { name: "Reward: €50.00" });
        await expect(reward).toContainText("ask the finder for the code");
        await expect(reward).toContainText("Pay only after that.");
        expect(await page.content()).not.toContain(`>${code}<`);
        await reward.getByRole("link", { name: "Confirm the return with the code" }).click();
        await expect(page).toHaveURL(new RegExp(`/dashboard/tags/${tag.tagId}#reward-heading$`));
        const form = panel.getByRole("form", { name: "Confirm the return" });
        const confirm = form.getByRole("button", { name: "Confirm the return" });
        await waitForHydration(confirm);
        await form.getByLabel(/Finder's handover code/).fill(code === "000000" ? "111111" : "000000");
        await confirm.click();
        await expect(form.getByLabel(/Finder's handover code/)).toHaveAccessibleDescription(/not the finder's code\. 4 tries left/);
      });

      await test.step("the right code confirms a verified handover; the tag is found; only payment and dispute remain", async () => {
        const form = panel.getByRole("form", { name: "Confirm the return" });
        await form.getByLabel(/Finder's handover code/).fill(`${code.slice(0, 3)} ${code.slice(3)}`);
        await form.getByRole("button", { name: "Confirm the return" }).click();
        await expect(page).toHaveURL(/notice=reward-returned-verified/);
        await expect(page.getByText("Return confirmed with the finder's handover code.")).toBeVisible();
        await expect(page.locator('[data-status="FOUND"]').first()).toBeVisible();
        await expect(panel.getByText("Verified handover")).toBeVisible();
        await expect(panel.getByRole("button", { name: "Record the payment" })).toBeVisible();
        await expect(panel.getByRole("button", { name: "Withdraw the offer" })).toHaveCount(0);
        await expect(panel.getByRole("form", { name: "Confirm the return" })).toHaveCount(0);
        await panel.scrollIntoViewIfNeeded();
        await expectRenderedScreenshot(page, testInfo, "reward-panel-returned-390", { fullPage: false });
      });

      await test.step("the finder's conversation says the return was confirmed with their code, and links the certificate", async () => {
        await finder.reload();
        const state = finder.getByTestId("finder-reward-state");
        await expect(state).toHaveAttribute("data-status", "RETURNED");
        await expect(state).toContainText("confirmed the return with your handover code");
        await expect(finder.getByTestId("handover-code")).toHaveCount(0);
        await expect(finder.getByRole("link", { name: "See the certificate of return" })).toBeVisible();
      });
    } finally {
      await context.close();
    }

    await test.step("the owner records the payment; the rewards list shows it paid", async () => {
      const form = panel.getByRole("form", { name: "Record the payment" });
      await form.getByLabel(/Payment reference/).fill("CASH-AT-BAKERY");
      await form.getByRole("button", { name: "Record the payment" }).click();
      await expect(page).toHaveURL(/notice=reward-paid/);
      await page.goto("/dashboard/rewards");
      const row = page.getByRole("list", { name: "Rewards, newest first" }).getByRole("listitem").first();
      await expect(row).toHaveAttribute("data-status", "PAID");
      await expect(row).toContainText("Rex's collar");
      await expect(row).toContainText("€50.00");
      await expect(row).toContainText("Verified handover");
      await expectRenderedScreenshot(page, testInfo, "rewards-list-390");
    });

    await test.step("the certificate page renders with Open Graph metadata, and prints only the certificate", async () => {
      await page.goto(`/dashboard/tags/${tag.tagId}`);
      // Paid, the reward is history: folded under "Rewards so far".
      await panel.getByText("Rewards so far").click();
      await panel.getByRole("link", { name: "Certificate of return" }).click();
      await expect(page).toHaveURL(/\/certificates\/[A-Za-z0-9]{24}$/);
      await expect(page.getByRole("heading", { level: 1, name: "Certificate of return" })).toBeVisible();
      await expect(page.getByTestId("certificate-item")).toHaveText("Rex's collar");
      await expect(page.getByTestId("certificate-reward")).toHaveText("€50.00");
      await expect(page.getByTestId("certificate-handover")).toHaveAttribute("data-verified", "true");
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", "Certificate of return: Rex's collar");
      await expect(page.locator('meta[property="og:description"]')).toHaveAttribute("content", /returned to its owner on .* with a verified handover\. Reward: €50\.00\./);
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", page.url());
      await expectNoHorizontalScroll(page, PHONE.width);
      await expectRenderedScreenshot(page, testInfo, "certificate-390");

      await page.emulateMedia({ media: "print" });
      await expect(page.getByRole("button", { name: "Print the certificate" })).toBeHidden();
      await expect(page.locator("body > header")).toBeHidden();
      await expect(page.getByRole("heading", { name: "Certificate of return" })).toBeVisible();
      const pdf = await page.pdf({ format: "A4" });
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      expect(pdf.length).toBeGreaterThan(5_000);
      await page.emulateMedia({ media: "screen" });
    });

    await test.step("a wrong certificate id is the plain 404 page", async () => {
      const response = await page.goto("/certificates/AAAAAAAAAAAAAAAAAAAAAAAA");
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
      const malformed = await page.goto("/certificates/not-a-certificate");
      expect(malformed?.status()).toBe(404);
    });
  });

  test("two finders, each with their own code: the owner names one conversation without a code; only that finder is thanked, the other is told the item is home", async ({ browser, page, playwright }, testInfo) => {
    test.setTimeout(180_000);
    const tag = await lostTag(playwright);
    await page.setViewportSize(PHONE);
    const panel = page.getByRole("region", { name: "Reward", exact: true });
    await bearerApi(playwright, async (api) => apiData(await api.post(`/api/v1/rewards/${tag.tagId}`, { data: { amount: 30, currency: "EUR" }, headers: { Authorization: `Bearer ${tag.token}` } }), 201));

    const context = await finderContext(browser);
    try {
      const [ana, scammer] = [await context.newPage(), await context.newPage()];
      const codes: string[] = [];
      for (const [finder, name] of [[ana, "Ana"], [scammer, ""]] as const) {
        await finder.goto(`/t/${tag.encryptedId}`);
        if (name) await finder.getByRole("textbox", { name: /Your name/ }).fill(name);
        await finder.getByRole("textbox", { name: "Your message" }).fill(name ? "I have Rex at the bakery." : "Send a gift card first.");
        await finder.getByRole("button", { name: "Send message" }).click();
        await expect(finder).toHaveURL(/\/thread\/[A-Za-z0-9_-]{43}\?sent=1/);
        codes.push((await finder.getByTestId("handover-code").textContent()) ?? "");
      }
      expect(codes[0]).toMatch(/^\d{6}$/);
      expect(codes[1]).toMatch(/^\d{6}$/);
      expect(codes[0]).not.toBe(codes[1]);

      await test.step("the owner chooses Ana's conversation, without a code", async () => {
        await signInWithForm(page, tag.owner);
        await page.goto(`/dashboard/tags/${tag.tagId}`);
        const form = panel.getByRole("form", { name: "Confirm the return" });
        const confirm = form.getByRole("button", { name: "Confirm the return" });
        await waitForHydration(confirm);
        const chooser = form.getByLabel(/who gave it back/);
        await chooser.selectOption({ label: (await chooser.locator("option", { hasText: "Ana" }).textContent()) ?? "" });
        await expectNoHorizontalScroll(page, PHONE.width);
        await confirm.click();
        await expect(page).toHaveURL(/notice=reward-returned-finder/);
        await expect(page.getByText("Return confirmed for the finder you chose.")).toBeVisible();
      });

      await test.step("Ana's conversation links the certificate; the other one only learns the item is home", async () => {
        await ana.reload();
        await expect(ana.getByTestId("finder-reward-state")).toHaveAttribute("data-outcome", "YOURS");
        await expect(ana.getByRole("link", { name: "See the certificate of return" })).toBeVisible();
        await scammer.reload();
        const state = scammer.getByTestId("finder-reward-state");
        await expect(state).toHaveAttribute("data-outcome", "ITEM_BACK");
        await expect(state).toContainText("The item is back with its owner");
        await expect(scammer.getByRole("link", { name: "See the certificate of return" })).toHaveCount(0);
        await expectRenderedScreenshot(scammer, testInfo, "reward-finder-item-back-390");
      });

      await test.step("the certificate says the owner confirmed it, not a verified handover", async () => {
        await ana.getByRole("link", { name: "See the certificate of return" }).click();
        const handover = ana.getByTestId("certificate-handover");
        await expect(handover).toHaveAttribute("data-confirmation", "OWNER_CHOSE_FINDER");
        await expect(handover).toHaveText("Confirmed by the owner");
        await expect(ana.getByText("named the finder's conversation, without a handover code")).toBeVisible();
      });
    } finally {
      await context.close();
    }
  });
});
