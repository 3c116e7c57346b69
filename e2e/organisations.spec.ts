import type { Page } from "@playwright/test";
import { expectNoHorizontalScroll, newAccount, registerByApi, signInWithForm } from "./support/accounts";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { apiData, bearerApi, finderContext, lostTag, PHONE, type OwnedTag, type RequestFactory } from "./support/finder";
import { e2eAdmin } from "./support/server-env";
import { samplePng } from "./support/tags";

/**
 * Organisations (docs/organisations.md) at a phone's size: a shelter applies, an admin verifies it, the shelter sees
 * the lost dog near it and reports the dog it found (with a photo), and the dog's owner opens the found
 * report from the notification's link.
 */

/**
 * Near Estrela garden, Lisbon (west of Greenwich: the forms' negative numbers are exercised), far from
 * e2e/alerts.spec.ts's Madrid: the run shares one database, and its alerts there stay open.
 */
const LAST_SEEN = { latitude: 38.7145, longitude: -9.1606 };
const SHELTER = { latitude: 38.71, longitude: -9.165 };
const FOUND_AT = { latitude: 38.716, longitude: -9.158 };

/** Map tiles come from openstreetmap.org, which this machine cannot reach: a blank tile stands in. */
const BLANK_TILE = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=", "base64");
async function offlineTiles(page: Page) {
  await page.route("https://tile.openstreetmap.org/**", (route) => route.fulfill({ status: 200, contentType: "image/png", body: BLANK_TILE }));
}

const auth = (tag: OwnedTag) => ({ Authorization: `Bearer ${tag.token}` });

/** Bella, a brown Labrador with a photo, on a PET tag in LOST with an open alert (through the API). */
async function lostDogWithAlert(playwright: RequestFactory): Promise<OwnedTag> {
  const tag = await lostTag(playwright, { lost: false });
  await bearerApi(playwright, async (api) => {
    await apiData(await api.patch(`/api/v1/tags/${tag.tagId}`, { data: { tagType: "PET", itemName: "Bella" }, headers: auth(tag) }), 200);
    await apiData(await api.put(`/api/v1/profiles/${tag.tagId}/pet`, { data: { petName: "Bella", species: "Dog", breed: "Labrador", color: "Brown" }, headers: auth(tag) }), 200);
    await apiData(await api.post(`/api/v1/profiles/${tag.tagId}/photos`, { multipart: { file: { name: "bella.png", mimeType: "image/png", buffer: await samplePng() } }, headers: auth(tag) }), 201);
    await apiData(await api.patch(`/api/v1/tags/${tag.tagId}/status`, { data: { status: "LOST", lostMessage: "Bella ran off in the park." }, headers: auth(tag) }), 200);
    await apiData(await api.post(`/api/v1/tags/${tag.tagId}/lost-alert`, { data: { ...LAST_SEEN, radiusKm: 5 }, headers: auth(tag) }), 201);
  });
  return tag;
}

test.describe("organisations on a phone", () => {
  test("a shelter applies, an admin verifies it, it sees the lost dog and reports finding it; the owner opens the found report", async ({ browser, playwright, request }, testInfo) => {
    test.setTimeout(240_000);
    const tag = await lostDogWithAlert(playwright);
    const shelter = newAccount("shelter");
    await registerByApi(request, shelter);
    const shelterContext = await finderContext(browser, { geolocation: SHELTER });
    const adminContext = await finderContext(browser);
    const ownerContext = await finderContext(browser);
    const them = await shelterContext.newPage();
    const adminPage = await adminContext.newPage();
    const owner = await ownerContext.newPage();
    let reportId = "";
    try {
      await test.step("the shelter applies: its premises from the phone's position", async () => {
        await offlineTiles(them);
        await signInWithForm(them, shelter);
        await them.getByLabel(/^Account menu for /).click();
        await them.getByRole("link", { name: "Organisation", exact: true }).click();
        await expect(them.getByRole("heading", { level: 1, name: "Your organisation" })).toBeVisible();
        const form = them.getByRole("form", { name: "Register your organisation" });
        const apply = form.getByRole("button", { name: "Apply" });
        await waitForHydration(apply);
        await form.getByLabel("Name", { exact: true }).fill("Estrela Animal Shelter");
        await form.getByLabel("Kind", { exact: true }).selectOption("SHELTER");
        await form.getByLabel("Address", { exact: true }).fill("Rua da Estrela 1, Lisbon");
        const map = form.getByTestId("point-picker-map");
        await expect(map).toHaveAttribute("data-map-state", "ready");
        await form.getByRole("button", { name: "Use my location" }).click();
        await expect(map).toHaveAttribute("data-point", `${SHELTER.latitude},${SHELTER.longitude}`);
        await form.getByLabel(/^Phone/).fill("+34 915 30 00 00");
        await form.getByLabel(/^Website/).fill("javascript:alert(1)");
        await apply.click();
        await expect(form.getByText("Must be a web address starting with http:// or https://.")).toBeVisible();
        await form.getByLabel(/^Website/).fill("https://retiro-shelter.example.org");
        await form.getByRole("button", { name: "Apply" }).click();
        // The page itself turns into the waiting organisation's.
        await expect(them.getByRole("heading", { level: 1, name: "Estrela Animal Shelter" })).toBeVisible();
        await expect(them.getByRole("status").filter({ hasText: "Waiting for verification" })).toBeVisible();
        await expectNoHorizontalScroll(them, PHONE.width);
      });

      await test.step("an admin verifies it from the waiting list", async () => {
        await signInWithForm(adminPage, e2eAdmin);
        await adminPage.goto("/admin/organisations");
        await expect(adminPage.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Organisations" })).toHaveAttribute("aria-current", "page");
        const card = adminPage.getByRole("listitem").filter({ has: adminPage.getByRole("heading", { name: /Estrela Animal Shelter/ }) });
        await expect(card).toContainText(shelter.email);
        await card.getByRole("button", { name: /^Verify/ }).click();
        await expect(adminPage.getByRole("status").filter({ hasText: "The organisation is verified." })).toBeVisible();
        await expectNoHorizontalScroll(adminPage, PHONE.width);
      });

      await test.step("the verified shelter sees Bella among the open alerts near it and reports finding her, with a photo", async () => {
        await them.reload();
        const alerts = them.getByRole("list", { name: "Open lost-pet alerts near you, newest first" });
        await expect(alerts.getByRole("listitem")).toHaveCount(1);
        await expect(alerts).toContainText("Bella");
        await expect(alerts).toContainText("Dog: Brown Labrador");
        await expect(alerts.locator("img")).toHaveCount(1);
        await expectRenderedScreenshot(them, testInfo, "organisation-verified-390");

        const form = them.getByRole("form", { name: "Report a found animal" });
        const file = form.getByRole("button", { name: "File the report" });
        await waitForHydration(file);
        await form.getByLabel("Animal", { exact: true }).selectOption("DOG");
        await form.getByLabel(/^Colour/).fill("brown");
        await form.getByLabel(/^Photo/).setInputFiles({ name: "found.png", mimeType: "image/png", buffer: await samplePng() });
        const map = form.getByTestId("point-picker-map");
        await expect(map).toHaveAttribute("data-map-state", "ready");
        await form.locator("summary", { hasText: "Type the coordinates instead" }).click();
        await form.getByRole("spinbutton", { name: "Latitude" }).fill(String(FOUND_AT.latitude));
        await form.getByRole("spinbutton", { name: "Longitude" }).fill(String(FOUND_AT.longitude));
        await expect(map).toHaveAttribute("data-point", `${FOUND_AT.latitude},${FOUND_AT.longitude}`);
        await expect(form.getByLabel("When it was found")).not.toHaveValue("");
        await form.getByLabel("Note", { exact: true }).fill("Friendly brown dog, no collar. She is with us at the shelter.");
        await file.click();
        await expect(form.getByRole("status").filter({ hasText: "It matches 1 lost pet: its owner is told now." })).toBeVisible();
        await them.reload();
        const reports = them.getByRole("list", { name: "Your found-animal reports, newest first" }).getByRole("listitem").filter({ hasText: "Matched 1 lost pet" });
        await expect(reports).toHaveCount(1);
        reportId = (await reports.first().getAttribute("data-found-report-id"))!;
        expect(reportId).toMatch(/^[0-9a-f-]{36}$/);
        await expectNoHorizontalScroll(them, PHONE.width);
      });

      await test.step("the owner opens the found report from the notification and sees who has Bella", async () => {
        await signInWithForm(owner, tag.owner);
        await owner.goto("/dashboard/notifications");
        await owner.getByRole("link", { name: /See the found animal/ }).first().click();
        await expect(owner).toHaveURL(new RegExp(`/dashboard/alerts/found/${reportId}$`));
        await expect(owner.getByRole("heading", { level: 1, name: "A found dog: brown" })).toBeVisible();
        const who = owner.getByRole("region", { name: "Who has it: Estrela Animal Shelter" });
        await expect(who).toContainText("+34915300000");
        await expect(who).toContainText("Rua da Estrela 1, Lisbon");
        await expect(who.getByRole("link", { name: "https://retiro-shelter.example.org" })).toBeVisible();
        await expect(owner.getByRole("img", { name: "Photo of the found dog" })).toBeVisible();
        await expect(owner.getByRole("img", { name: "Photo of the found dog" })).toHaveJSProperty("complete", true);
        expect(await owner.getByRole("img", { name: "Photo of the found dog" }).evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
        await expect(owner.getByRole("region", { name: "The lost pet it matched" })).toContainText("Bella");
        await expect(owner.getByRole("link", { name: "Report this" })).toHaveAttribute("href", `/dashboard/account/safety?foundReportId=${reportId}&type=SCAM#report`);
        await expectNoHorizontalScroll(owner, PHONE.width);
        await expectRenderedScreenshot(owner, testInfo, "found-report-owner-390");
      });

      await test.step("someone else cannot open it", async () => {
        await adminContext.clearCookies();
        const stranger = newAccount("stranger");
        // A client of its own: the shelter's registration left its session cookie in `request`.
        await bearerApi(playwright, (api) => registerByApi(api, stranger));
        await signInWithForm(adminPage, stranger);
        const response = await adminPage.goto(`/dashboard/alerts/found/${reportId}`);
        expect(response?.status()).toBe(404);
      });
    } finally {
      await Promise.all([shelterContext.close(), adminContext.close(), ownerContext.close()]);
    }
  });
});
