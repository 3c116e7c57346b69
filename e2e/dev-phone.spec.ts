import { randomInt } from "node:crypto";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { expectNoHorizontalScroll, signInWithForm } from "./support/accounts";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { apiData, bearerApi, lostTag, PHONE, type OwnedTag } from "./support/finder";

/**
 * Issue 27's whole journey on the development phone (docs/relay.md "The development phone"), at a phone's
 * size: an owner with a verified number and the relay on for their lost dog's tag (set up through the
 * API); on /dev/phone the finder's phone calls the relay, types the PIN, the owner's phone rings, hears the
 * whisper naming the item, presses 1, and the finder hangs up; the owner's conversation shows the answered
 * call with its length. Then a text exchange through the relay, where neither phone ever shows the other's
 * number. The e2e server is `next start` with ENABLE_DEV_MAILBOX, which turns the development phone on.
 */

const ITEM = "Rex's collar";
const auth = (tag: OwnedTag) => ({ Authorization: `Bearer ${tag.token}` });

interface Delivery {
  kind: "sms" | "call";
  from: string;
  to: string;
  body: string | null;
}

async function deliveriesOf(api: APIRequestContext, number: string): Promise<Delivery[]> {
  return apiData<Delivery[]>(await api.get(`/api/dev/phone?number=${encodeURIComponent(number)}`), 200);
}

/** The owner verifies `number` with the texted code (read from the development phone) and turns the relay on. */
async function relayOn(api: APIRequestContext, tag: OwnedTag, number: string): Promise<{ relayNumber: string; pin: string }> {
  await apiData(await api.post("/api/v1/auth/phone", { data: { phone: number }, headers: auth(tag) }), 202);
  let code: string | undefined;
  await expect
    .poll(async () => (code = (await deliveriesOf(api, number))[0]?.body?.match(/\b(\d{6})\b/)?.[1]), { message: `the code texted to ${number}` })
    .toBeTruthy();
  await apiData(await api.post("/api/v1/auth/phone/verify", { data: { code }, headers: auth(tag) }), 200);
  const relay = await apiData<{ enabled: boolean; number: string; pin: string }>(await api.patch(`/api/v1/tags/${tag.tagId}/relay`, { data: { enabled: true }, headers: auth(tag) }), 200);
  expect(relay.enabled).toBe(true);
  expect(relay.pin).toMatch(/^\d{6}$/);
  return { relayNumber: relay.number, pin: relay.pin };
}

/** The relay sends its texts to the other side after the webhook answers: reload the page until `text` shows. */
async function untilShown(page: Page, locator: Locator) {
  await expect(async () => {
    await page.reload();
    await expect(locator).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * `number`'s digits that must never be shown (all but its last 2): its national number without them,
 * which is inside both the international and the national form, however they are spaced.
 */
function hiddenDigits(number: string): string {
  const parsed = parsePhoneNumberFromString(number);
  expect(parsed?.isValid(), number).toBe(true);
  return parsed!.nationalNumber.slice(0, -2);
}

/** The visible text of `region`, and its digits alone (so a number split by spaces or dashes is caught too). */
async function shown(region: Locator): Promise<{ text: string; digits: string }> {
  const text = await region.innerText();
  return { text, digits: text.replace(/\D/g, "") };
}

test.describe("the development phone: a whole relayed call and text exchange", () => {
  test.use({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

  test("the finder calls with the PIN, the owner answers after the whisper; the call is in the conversation; texts go both ways with neither number shown", async ({ page, playwright }, testInfo) => {
    test.setTimeout(180_000);
    const tag = await lostTag(playwright);
    const ownerNumber = `+49151${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
    // 555-0100…0199 are the fictional US numbers; a US caller hears the English prompts.
    const finderNumber = `+1415555${String(randomInt(100, 200)).padStart(4, "0")}`;
    const { relayNumber, pin } = await bearerApi(playwright, (api) => relayOn(api, tag, ownerNumber));

    const finderPhone = page.getByRole("region", { name: `Finder's phone ${finderNumber}`, exact: true });
    const ownerPhone = page.getByRole("region", { name: `Owner's phone ${ownerNumber}`, exact: true });
    const finderCall = finderPhone.getByRole("region", { name: "Finder's phone: call" });
    const ownerCall = ownerPhone.getByRole("region", { name: "Owner's phone: call" });

    await test.step("the page shows the two phones chosen: the finder's number typed, the owner's picked among the relay's recipients", async () => {
      await page.goto("/dev/phone");
      await expect(page.getByRole("heading", { level: 1, name: "Development phone" })).toBeVisible();
      const choose = page.getByRole("form", { name: "Choose the phones" });
      // The owner's number is offered: the verification code made it one of the numbers the relay texted.
      await expect(choose.locator(`datalist#phone-owner-numbers option[value="${ownerNumber}"]`)).toHaveCount(1);
      await choose.getByLabel("Finder's number").fill(finderNumber);
      await choose.getByLabel("Owner's number").fill(ownerNumber);
      await choose.getByRole("button", { name: "Show" }).click();
      await expect(finderPhone).toBeVisible();
      await expect(ownerPhone).toBeVisible();
      await expect(ownerCall.getByText("Not ringing.")).toBeVisible();
      await expectNoHorizontalScroll(page, PHONE.width);
      await expectRenderedScreenshot(page, testInfo, "dev-phone-390");
    });

    await test.step("the finder dials the relay, hears the prompt and types the PIN: the owner's phone rings from the relay number", async () => {
      const dial = finderCall.getByRole("button", { name: `Call the relay (${relayNumber})` });
      await waitForHydration(dial);
      await dial.click();
      await expect(finderCall.getByRole("status")).toHaveText("The relay is waiting for keys");
      await expect(finderCall.getByRole("list", { name: "What was said" })).toContainText("Please enter the 6-digit PIN");
      await finderCall.getByLabel("Keypad").fill(pin);
      await finderCall.getByRole("button", { name: "Press", exact: true }).click();
      await expect(finderCall.getByRole("status")).toHaveText("Ringing the owner…");
      await expect(finderCall.getByRole("list", { name: "What was said" })).toContainText("Connecting you to the owner.");
      await expect(ownerCall.getByRole("status")).toHaveText(`Incoming call from ${relayNumber}`);
    });

    await test.step("the owner answers, hears the whisper naming the item and presses 1: the call is connected", async () => {
      await ownerCall.getByRole("button", { name: "Answer" }).click();
      await expect(ownerCall.getByRole("status")).toHaveText("Answered: the relay is speaking");
      await expect(ownerCall.getByRole("list", { name: "What was said" })).toContainText(`A finder of ${ITEM} is calling through Tag Service; press 1 to accept.`);
      await ownerCall.getByLabel("Keypad").fill("1");
      await ownerCall.getByRole("button", { name: "Press", exact: true }).click();
      await expect(ownerCall.getByRole("status")).toHaveText("Connected");
      await expect(finderCall.getByRole("status")).toHaveText("Connected");
      await expectRenderedScreenshot(page, testInfo, "dev-phone-connected-390");
    });

    await test.step("the finder hangs up: both phones show the call completed", async () => {
      await finderCall.getByRole("button", { name: "Hang up" }).click();
      await expect(finderCall.getByText("Last call (completed)")).toBeVisible();
      await expect(finderCall.getByRole("button", { name: `Call the relay (${relayNumber})` })).toBeVisible();
      await expect(ownerCall.getByText("Not ringing.")).toBeVisible();
      await expect(ownerCall.getByText("Last call (completed)")).toBeVisible();
      await expect(ownerPhone.getByRole("region", { name: "Owner's phone: messages" })).toContainText(`Call from ${relayNumber}`);
    });

    await test.step("the finder texts the PIN and a message: the owner's phone gets it from the relay, with the item's name", async () => {
      await finderPhone.getByLabel("Text the relay").fill(`${pin} Found your dog near the park`);
      await finderPhone.getByRole("button", { name: "Send text" }).click();
      const finderMessages = finderPhone.getByRole("region", { name: "Finder's phone: messages" });
      await expect(finderMessages.getByRole("listitem").filter({ hasText: `To ${relayNumber}` }).filter({ hasText: "Found your dog near the park" })).toBeVisible();
      // The relay's answer to the finder (a <Message> of the webhook's TwiML) arrives with the redirect.
      await expect(finderMessages.getByRole("listitem").filter({ hasText: `From ${relayNumber}` }).filter({ hasText: `Sent to the owner of ${ITEM}.` })).toBeVisible();

      const relayed = ownerPhone
        .getByRole("region", { name: "Owner's phone: messages" })
        .getByRole("listitem")
        .filter({ hasText: `From ${relayNumber}` })
        .filter({ hasText: new RegExp(`${ITEM} \\([^)]+\\): Found your dog near the park`) });
      await untilShown(page, relayed);
    });

    await test.step("the owner's phone texts a reply: the finder's phone gets it from the relay number", async () => {
      await ownerPhone.getByLabel("Text the relay").fill("Thank you! I am on my way.");
      await ownerPhone.getByRole("button", { name: "Send text" }).click();
      await expect(ownerPhone.getByRole("listitem").filter({ hasText: `To ${relayNumber}` }).filter({ hasText: "Thank you! I am on my way." })).toBeVisible();
      const reply = finderPhone
        .getByRole("region", { name: "Finder's phone: messages" })
        .getByRole("listitem")
        .filter({ hasText: `From ${relayNumber}` })
        .filter({ hasText: `Owner of ${ITEM}: Thank you! I am on my way.` });
      await untilShown(page, reply);
      await expectNoHorizontalScroll(page, PHONE.width);
      await expectRenderedScreenshot(page, testInfo, "dev-phone-texts-390");
    });

    await test.step("neither phone shows the other's number (the last 2 digits at most), on the page or in what the network delivered", async () => {
      const owner = await shown(ownerPhone);
      expect(owner.text).not.toContain(finderNumber);
      expect(owner.digits).not.toContain(hiddenDigits(finderNumber));
      const finder = await shown(finderPhone);
      expect(finder.text).not.toContain(ownerNumber);
      expect(finder.digits).not.toContain(hiddenDigits(ownerNumber));

      await bearerApi(playwright, async (api) => {
        const toOwner = await deliveriesOf(api, ownerNumber);
        const toFinder = await deliveriesOf(api, finderNumber);
        // Every call and text of either phone goes to or comes from the relay number only.
        for (const delivery of toOwner) expect([delivery.from, delivery.to].sort()).toEqual([ownerNumber, relayNumber].sort());
        for (const delivery of toFinder) expect([delivery.from, delivery.to].sort()).toEqual([finderNumber, relayNumber].sort());
        const bodies = (deliveries: Delivery[]) => deliveries.map((delivery) => (delivery.body ?? "").replace(/\D/g, "")).join(" ");
        expect(bodies(toOwner)).not.toContain(hiddenDigits(finderNumber));
        expect(bodies(toFinder)).not.toContain(hiddenDigits(ownerNumber));
        expect(toOwner.filter((delivery) => delivery.kind === "call")).toHaveLength(1);
      });
    });

    await test.step("the owner's conversation shows the answered call with its length, then the texts both ways", async () => {
      // One conversation per finder's number and tag: the call opened it, the texts joined it.
      const [thread, ...others] = await bearerApi(playwright, async (api) => apiData<{ id: string }[]>(await api.get("/api/v1/messages", { headers: auth(tag) }), 200));
      expect(others).toHaveLength(0);
      const { messages } = await bearerApi(playwright, async (api) =>
        apiData<{ messages: { sender: string; channel: string; content: string; call: { outcome: string; durationSeconds: number | null } | null }[] }>(
          await api.get(`/api/v1/messages/${thread!.id}`, { headers: auth(tag) }),
          200,
        ),
      );
      expect(messages.map((message) => [message.sender, message.channel])).toEqual([
        ["FINDER", "call"],
        ["FINDER", "sms"],
        ["OWNER", "sms"],
      ]);
      expect(messages[0]!.call?.outcome).toBe("answered");
      const seconds = messages[0]!.call!.durationSeconds!;
      expect(seconds).toBeGreaterThanOrEqual(0);

      await signInWithForm(page, tag.owner);
      await page.goto(`/dashboard/messages/${thread!.id}`);
      const shownMessages = page.getByRole("list", { name: "Messages, oldest first" }).getByRole("listitem");
      await expect(shownMessages).toHaveCount(3);
      // lib/services/relay/conversation.ts callLength: "40 s", "2 min 5 s".
      const length = seconds >= 60 ? `${Math.floor(seconds / 60)} min${seconds % 60 ? ` ${seconds % 60} s` : ""}` : `${seconds} s`;
      await expect(shownMessages.nth(0)).toContainText(`Call through the relay, answered (${length}).`);
      await expect(shownMessages.nth(1)).toContainText("Found your dog near the park");
      await expect(shownMessages.nth(2)).toContainText("Thank you! I am on my way.");
      const conversation = await shown(page.getByRole("main"));
      expect(conversation.digits).not.toContain(hiddenDigits(finderNumber));
      await expectNoHorizontalScroll(page, PHONE.width);
      await expectRenderedScreenshot(page, testInfo, "dev-phone-conversation-390");
    });
  });
});
