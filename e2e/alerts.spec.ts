import type { Page } from "@playwright/test";
import { expectNoHorizontalScroll, newAccount, registerByApi, signInWithForm, type TestAccount } from "./support/accounts";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { apiData, bearerApi, finderContext, lostTag, PHONE, type OwnedTag, type RequestFactory } from "./support/finder";
import { e2eBaseUrl } from "./support/server-env";
import { samplePng } from "./support/tags";

/**
 * Lost-pet alerts (docs/alerts.md) at a phone's size: the owner of a lost dog alerts the neighbourhood from
 * lost mode, a neighbour who watches the area is told live, opens the dog's public page and taps "I've seen
 * this pet", and the owner sees the place on the conversation's map. Then the page without JavaScript, and
 * once the dog is home.
 */

/** Retiro park, Madrid: a longitude west of Greenwich, so the forms' negative numbers are exercised. */
const LAST_SEEN = { latitude: 40.4153, longitude: -3.6845 };
const NEIGHBOUR_HOME = { latitude: 40.42, longitude: -3.7 };
const OWNER_HOME = { latitude: 40.41, longitude: -3.69, radiusKm: 2 };
const SIGHTING = { latitude: 40.417, longitude: -3.69, accuracy: 15 };

/** Map tiles come from openstreetmap.org, which this machine cannot reach: a blank tile stands in. */
const BLANK_TILE = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=", "base64");
async function offlineTiles(page: Page) {
  await page.route("https://tile.openstreetmap.org/**", (route) => route.fulfill({ status: 200, contentType: "image/png", body: BLANK_TILE }));
}

const auth = (tag: OwnedTag) => ({ Authorization: `Bearer ${tag.token}` });

/** Bella, a brown Labrador with a photo, on a PET tag in LOST (through the API). */
async function lostDog(playwright: RequestFactory): Promise<OwnedTag> {
  const tag = await lostTag(playwright, { lost: false });
  await bearerApi(playwright, async (api) => {
    await apiData(await api.patch(`/api/v1/tags/${tag.tagId}`, { data: { tagType: "PET", itemName: "Bella" }, headers: auth(tag) }), 200);
    await apiData(
      await api.put(`/api/v1/profiles/${tag.tagId}/pet`, { data: { petName: "Bella", species: "Dog", breed: "Labrador", color: "Brown", size: "Large", distinctiveMarks: "White star on the chest" }, headers: auth(tag) }),
      200,
    );
    await apiData(await api.post(`/api/v1/profiles/${tag.tagId}/photos`, { multipart: { file: { name: "bella.png", mimeType: "image/png", buffer: await samplePng() } }, headers: auth(tag) }), 201);
    await apiData(await api.patch(`/api/v1/tags/${tag.tagId}/status`, { data: { status: "LOST", lostMessage: "Bella ran off in the park." }, headers: auth(tag) }), 200);
    // The owner watches their own neighbourhood: the alert's map opens there rather than on the whole world.
    await apiData(await api.put("/api/v1/alerts/area", { data: OWNER_HOME, headers: auth(tag) }), 200);
  });
  return tag;
}

/** A neighbour with an account, signed in on a phone of their own; their watch area is set on the page. */
async function neighbourPhone(browser: import("@playwright/test").Browser, request: import("@playwright/test").APIRequestContext) {
  const account: TestAccount = newAccount("neighbour");
  await registerByApi(request, account);
  const context = await finderContext(browser, { geolocation: SIGHTING });
  const page = await context.newPage();
  await offlineTiles(page);
  await signInWithForm(page, account);
  return { account, context, page };
}

test.describe("lost-pet alerts on a phone", () => {
  test("the owner alerts the neighbourhood from lost mode; a watching neighbour is told live, sees the dog's page and reports a sighting; the owner sees the place on the map", async ({
    page,
    browser,
    playwright,
    request,
  }, testInfo) => {
    test.setTimeout(240_000);
    const tag = await lostDog(playwright);
    const neighbour = await neighbourPhone(browser, request);
    const them = neighbour.page;
    let alertUrl = "";
    try {
      await test.step("the neighbour watches an area around their home: typed coordinates, the radius drawn on the map", async () => {
        await them.goto("/dashboard/alerts");
        await expect(them.getByRole("heading", { level: 1, name: "Lost pets near you" })).toBeVisible();
        await expect(them.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Lost pets nearby" })).toHaveAttribute("aria-current", "page");
        const form = them.getByRole("form", { name: "Watch my area for lost pets" });
        const save = form.getByRole("button", { name: "Start watching" });
        await waitForHydration(save);
        const map = form.getByTestId("point-picker-map");
        await expect(map).toHaveAttribute("data-map-state", "ready");
        // From the keyboard: the map takes focus, the arrow keys move it and Enter chooses its centre.
        await map.locator(".leaflet-container").focus();
        await them.keyboard.press("ArrowRight");
        await them.keyboard.press("Enter");
        await expect(map).not.toHaveAttribute("data-point", "");
        await expect(form.getByTestId("point-picker-status")).toHaveText(/^Chosen: -?\d+\.\d{5}, -?\d+\.\d{5}$/);
        // A tap on the map chooses a point; typing the home's coordinates then moves it there.
        const keyed = await map.getAttribute("data-point");
        await map.click({ position: { x: 60, y: 200 } });
        await expect(map).not.toHaveAttribute("data-point", keyed!);
        await form.locator("summary", { hasText: "Type the coordinates instead" }).click();
        await form.getByRole("spinbutton", { name: "Latitude" }).fill(String(NEIGHBOUR_HOME.latitude));
        await form.getByRole("spinbutton", { name: "Longitude" }).fill(String(NEIGHBOUR_HOME.longitude));
        await expect(map).toHaveAttribute("data-point", `${NEIGHBOUR_HOME.latitude},${NEIGHBOUR_HOME.longitude}`);
        await form.getByLabel("Radius in km").fill("3");
        await expect(map.locator(".point-picker-radius")).toHaveCount(1);
        await form.getByLabel("Which pets").selectOption("DOG");
        await save.click();
        await expect(form.getByRole("status").filter({ hasText: "Saved: you will hear of pets lost within 3 km of your area." })).toBeVisible();
        await them.reload();
        await expect(them.getByTestId("watching")).toHaveText("You are watching 3 km around your area, dogs.");
        await expect(map).toHaveAttribute("data-map-state", "ready");
        await expect(map.locator(".point-picker-radius")).toHaveCount(1);
        await expect(them.getByText("No pet is missing near you right now.")).toBeVisible();
        await expectNoHorizontalScroll(them, PHONE.width);
        await expectRenderedScreenshot(them, testInfo, "alerts-watch-area-390");
      });

      await test.step("the owner raises an alert from lost mode: the place from the phone's position, sent to one person nearby", async () => {
        await page.setViewportSize(PHONE);
        await offlineTiles(page);
        await page.context().grantPermissions(["geolocation"], { origin: e2eBaseUrl });
        await page.context().setGeolocation({ ...LAST_SEEN, accuracy: 20 });
        await signInWithForm(page, tag.owner);
        await page.goto(`/dashboard/tags/${tag.tagId}`);
        const mode = page.getByRole("region", { name: "Lost mode is on" });
        // Folded, the alert keeps the tag page short on a phone: the rarely used rest starts within about three screens.
        const more = (await page.getByText(/^More: /).boundingBox())!;
        expect(more.y + (await page.evaluate(() => window.scrollY)), "the top of \"More\" on the tag page").toBeLessThanOrEqual(3.25 * PHONE.height);
        await mode.locator("summary", { hasText: "Alert people nearby" }).click();
        const form = mode.getByRole("form", { name: "Alert people nearby" });
        const send = form.getByRole("button", { name: "Alert people nearby" });
        await waitForHydration(send);
        await expect(form.getByLabel("When")).not.toHaveValue("");
        await expect(form.getByLabel("Alert people within (km)")).toHaveValue("5");
        const map = form.getByTestId("point-picker-map");
        await expect(map).toHaveAttribute("data-map-state", "ready");
        // It opens on the owner's neighbourhood (their watch area, as no finder has placed Bella yet), not the world.
        await expect(map).toHaveAttribute("data-opens-at", /^40\.4\d*,-3\.69?\d*$/);
        await expect(map.locator("img.leaflet-tile").first()).toHaveAttribute("src", /tile\.openstreetmap\.org\/13\//);
        await map.click();
        await expect(map.locator(".point-picker-point")).toHaveCount(1);
        await form.getByRole("button", { name: "Use my location" }).click();
        await expect(map).toHaveAttribute("data-point", `${LAST_SEEN.latitude},${LAST_SEEN.longitude}`);
        await expect(form.getByTestId("point-picker-status")).toHaveText("Chosen: 40.41530, -3.68450");
        await expect(map.locator(".point-picker-radius")).toHaveCount(1);

        // The neighbour sits on a dashboard page with its live stream open.
        const streamOpen = them.waitForResponse((response) => response.url().endsWith("/api/v1/notifications/stream") && response.status() === 200);
        await them.goto("/dashboard/alerts");
        await streamOpen;

        await form.getByLabel("Note for the neighbours (optional)").fill("Shy with strangers: please don't chase her.");
        await send.click();
        await expect(form.getByRole("status").filter({ hasText: "Sent to 1 person nearby." })).toBeVisible();
        const sent = mode.getByRole("list", { name: "Alerts sent, newest first" }).getByRole("listitem");
        await expect(sent).toHaveCount(1);
        await expect(sent.first()).toHaveAttribute("data-status", "OPEN");
        await expect(sent.first().getByTestId("alert-recipients")).toContainText("1 person within 5 km");
        await expect(mode.getByTestId("alerts-remaining")).toHaveText("2 more alerts possible today.");
        alertUrl = (await sent.first().getByRole("link", { name: /Its public page/ }).getAttribute("href"))!;
        expect(alertUrl).toMatch(/^\/lost\/[0-9a-f-]{36}$/);
        await expectNoHorizontalScroll(page, PHONE.width);
        await expectRenderedScreenshot(page, testInfo, "tag-lost-alert-sent-390");
      });

      await test.step("the neighbour's open page announces it at once, and lists it with its distance", async () => {
        await expect(them.getByRole("status").filter({ hasText: "New notification: Lost dog near you: Bella" })).toHaveCount(1, { timeout: 15_000 });
        await them.reload();
        const nearby = them.getByRole("list", { name: "Lost pets near you, newest first" }).getByRole("listitem");
        await expect(nearby).toHaveCount(1);
        await expect(nearby.first()).toContainText("Bella");
        await expect(nearby.first()).toContainText("Dog: Brown Labrador");
        await expect(nearby.first()).toContainText(/Last seen about [\d.]+ (km|m) from your area/);
        await expect(nearby.first().locator("img")).toHaveAttribute("src", /^\/api\/photos\//);
        await expectRenderedScreenshot(them, testInfo, "alerts-nearby-390");
        await nearby.first().getByRole("link").click();
        await expect(them).toHaveURL(new RegExp(`${alertUrl}$`));
      });

      await test.step("the dog's public page: photo, description, the area on a map (rounded), the owner's note, the forms", async () => {
        await expect(them.getByRole("heading", { level: 1, name: "Bella" })).toBeVisible();
        await expect(them.getByText("LOST: please look out for this pet")).toBeVisible();
        await expect(them.getByTestId("lost-photo")).toHaveAttribute("alt", "Photo 1 of Bella");
        const identifying = them.getByTestId("lost-identifying");
        for (const text of ["Labrador", "Brown", "Large", "White star on the chest"]) await expect(identifying).toContainText(text);
        await expect(them.getByText("Shy with strangers: please don't chase her.")).toBeVisible();
        const map = them.getByRole("region", { name: "Map of the area where the pet was last seen" });
        await map.scrollIntoViewIfNeeded();
        await expect(map).toHaveAttribute("data-map-state", "ready");
        await expect(map).toHaveAttribute("data-place-count", "1");
        // Never the precise place: the links name the ~500 m grid's point.
        const osm = them.getByRole("link", { name: "Open in OpenStreetMap" });
        await expect(osm).toHaveAttribute("href", /mlat=40\.41500&mlon=-3\.68500/);
        expect(await them.content()).not.toContain("40.4153");
        await expect(them.getByRole("form", { name: "Message the owner" })).toBeVisible();
        await expectNoHorizontalScroll(them, PHONE.width);
        await expectRenderedScreenshot(them, testInfo, "lost-page-390");
        // "Report this alert" leads to the report form, which knows what is reported.
        await them.getByRole("link", { name: "Report this alert" }).click();
        await expect(them.getByRole("form", { name: "Report a problem" })).toContainText("You are reporting a lost-pet alert.");
        await them.goBack();
      });

      await test.step("\"I've seen this pet\" shares the neighbour's position and opens the conversation", async () => {
        const seen = them.getByRole("button", { name: "I've seen this pet" });
        await waitForHydration(seen);
        await seen.click();
        await expect(them).toHaveURL(/\/thread\/[A-Za-z0-9_-]{43}\?sent=1$/);
        const conversation = them.getByRole("list", { name: "Your conversation with the owner" });
        await expect(conversation).toContainText("I've seen this pet.");
        await expect(conversation.locator("li[data-location]")).toHaveCount(1);
      });

      await test.step("the owner opens the conversation and sees the place on its map", async () => {
        await page.goto("/dashboard/messages");
        const conversations = page.getByRole("list", { name: "Conversations, most recent first" });
        await expect(conversations.getByRole("listitem")).toHaveCount(1);
        await conversations.getByRole("link").first().click();
        const messages = page.getByRole("list", { name: "Messages, oldest first" });
        await expect(messages).toContainText("I've seen this pet.");
        await expect(messages.locator("li[data-location]")).toHaveCount(1);
        const map = page.getByRole("region", { name: "Map of shared locations" });
        await map.scrollIntoViewIfNeeded();
        await expect(map).toHaveAttribute("data-map-state", "ready");
        await expect(map.locator(".map-place-shared")).toHaveCount(1);
        const places = page.getByRole("list", { name: "Shared locations and scans" });
        await expect(places.getByRole("link", { name: "Open in OpenStreetMap" }).first()).toHaveAttribute("href", /mlat=40\.41700&mlon=-3\.69000/);
      });

      await test.step("once Bella is home, her page says so and offers no forms", async () => {
        await bearerApi(playwright, async (api) => apiData(await api.patch(`/api/v1/tags/${tag.tagId}/status`, { data: { status: "FOUND" }, headers: auth(tag) }), 200));
        await them.goto(alertUrl);
        await expect(them.getByRole("heading", { level: 1, name: "Bella is home" })).toBeVisible();
        await expect(them.getByRole("form")).toHaveCount(0);
        await expect(them.getByRole("button", { name: "I've seen this pet" })).toHaveCount(0);
        await expectRenderedScreenshot(them, testInfo, "lost-page-home-390");
        // And it has left the neighbour's list.
        await them.goto("/dashboard/alerts");
        await expect(them.getByText("No pet is missing near you right now.")).toBeVisible();
      });
    } finally {
      await neighbour.context.close();
    }
  });

  test("without JavaScript: the page shows the pet and the message form; a sighting described in words opens the conversation; German; unknown alerts are 404", async ({
    browser,
    playwright,
  }, testInfo) => {
    test.setTimeout(120_000);
    const tag = await lostDog(playwright);
    const created = await bearerApi(playwright, async (api) =>
      apiData<{ alertId: string; url: string }>(await api.post(`/api/v1/tags/${tag.tagId}/lost-alert`, { data: { ...LAST_SEEN, radiusKm: 2 }, headers: auth(tag) }), 201),
    );
    const context = await finderContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await test.step("the page is readable and its forms post without scripts", async () => {
        await page.goto(created.url);
        await expect(page.getByRole("heading", { level: 1, name: "Bella" })).toBeVisible();
        // A shared link's preview shows the pet.
        await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", "Lost: Bella");
        await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /\/api\/photos\/[0-9a-f-]{36}$/);
        await expect(page.getByTestId("lost-identifying")).toContainText("Labrador");
        await expect(page.getByRole("form", { name: "Message the owner" }).getByRole("textbox", { name: "Your message" })).toBeVisible();
        // The map box says it needs JavaScript; the links open the area.
        await expect(page.getByRole("region", { name: "Map of the area where the pet was last seen" })).toHaveAttribute("data-map-state", "static");
        await expect(page.getByRole("link", { name: "Open in your maps app" })).toHaveAttribute("href", "geo:40.41500,-3.68500");
        await expect(page.getByRole("button", { name: "I've seen this pet" })).toHaveCount(0);
        await expectNoHorizontalScroll(page, PHONE.width);
        // No rendered-screenshot check: it and axe run scripts in the page, which this context forbids.
        await testInfo.attach("lost-page-nojs-390", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });

        const where = page.getByRole("form", { name: "Where did you see it?" });
        await where.getByRole("button", { name: "Send to the owner" }).click();
        await expect(where.getByRole("textbox", { name: "Where did you see it?" })).toHaveAccessibleDescription(/Say where you saw it\./);
        await where.getByRole("textbox", { name: "Where did you see it?" }).fill("By the bakery on Calle de Alcalá, ten minutes ago.");
        await where.getByRole("button", { name: "Send to the owner" }).click();
        await expect(page).toHaveURL(/\/thread\/[A-Za-z0-9_-]{43}\?sent=1$/);
        await expect(page.getByRole("list", { name: "Your conversation with the owner" })).toContainText("I've seen this pet: By the bakery on Calle de Alcalá, ten minutes ago.");
      });
    } finally {
      await context.close();
    }

    const german = await finderContext(browser, { locale: "de-DE" });
    const dePage = await german.newPage();
    try {
      await test.step("in German, and an unknown alert is the 404 page", async () => {
        await offlineTiles(dePage);
        await dePage.goto(created.url);
        await expect(dePage.locator("html")).toHaveAttribute("lang", "de");
        await expect(dePage.getByText("VERMISST: Bitte halten Sie Ausschau nach diesem Tier")).toBeVisible();
        await expect(dePage.getByRole("button", { name: "Ich habe dieses Tier gesehen" })).toBeVisible();
        const missing = await dePage.goto("/lost/00000000-0000-4000-8000-000000000000");
        expect(missing?.status()).toBe(404);
        await expect(dePage.getByRole("heading", { level: 1, name: "Meldung nicht gefunden" })).toBeVisible();
        expect((await dePage.goto("/lost/not-an-id"))?.status()).toBe(404);
      });
    } finally {
      await german.close();
    }
  });

  test("without JavaScript the owner's and the neighbour's forms work with typed coordinates", async ({ browser, playwright, request }, testInfo) => {
    test.setTimeout(120_000);
    const tag = await lostDog(playwright);
    const neighbour = newAccount("nojs-neighbour");
    await registerByApi(request, neighbour);
    // Signed in with scripts (the sign-in form needs them), then the same cookies in a context without.
    const signIn = async (account: TestAccount) => {
      const scripted = await browser.newContext({ baseURL: e2eBaseUrl, viewport: PHONE });
      const page = await scripted.newPage();
      await signInWithForm(page, account);
      const state = await scripted.storageState();
      await scripted.close();
      return browser.newContext({ baseURL: e2eBaseUrl, viewport: PHONE, javaScriptEnabled: false, storageState: state });
    };
    const theirs = await signIn(neighbour);
    const owners = await signIn(tag.owner);
    try {
      await test.step("the neighbour types the home's coordinates", async () => {
        const page = await theirs.newPage();
        await page.goto("/dashboard/alerts");
        const form = page.getByRole("form", { name: "Watch my area for lost pets" });
        await expect(form.getByTestId("point-picker")).toHaveAttribute("data-mode", "static");
        await form.getByRole("spinbutton", { name: "Latitude" }).fill("-34.6037");
        await form.getByRole("spinbutton", { name: "Longitude" }).fill("-58.3816");
        await form.getByLabel("Radius in km").fill("4");
        await form.getByRole("button", { name: "Start watching" }).click();
        await expect(page.getByText("Saved: you will hear of pets lost within 4 km of your area.")).toBeVisible();
        await page.goto("/dashboard/alerts");
        await expect(page.getByTestId("watching")).toHaveText("You are watching 4 km around your area, all pets.");
        await expectNoHorizontalScroll(page, PHONE.width);
        await testInfo.attach("alerts-watch-area-nojs-390", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
      });

      await test.step("the owner unfolds \"Alert people nearby\", types where the dog was last seen and sends it", async () => {
        const page = await owners.newPage();
        await page.goto(`/dashboard/tags/${tag.tagId}`);
        const mode = page.getByRole("region", { name: "Lost mode is on" });
        await mode.locator("summary", { hasText: "Alert people nearby" }).click();
        const form = mode.getByRole("form", { name: "Alert people nearby" });
        await form.getByRole("spinbutton", { name: "Latitude" }).fill("-34.6050");
        await form.getByRole("spinbutton", { name: "Longitude" }).fill("-58.3800");
        await form.getByRole("button", { name: "Alert people nearby" }).click();
        await expect(page.getByText("Sent to 1 person nearby.")).toBeVisible();
        await expect(page.getByRole("list", { name: "Alerts sent, newest first" }).getByRole("listitem")).toHaveCount(1);
      });

      await test.step("the neighbour's list has the dog", async () => {
        const page = await theirs.newPage();
        await page.goto("/dashboard/alerts");
        await expect(page.getByRole("list", { name: "Lost pets near you, newest first" }).getByRole("listitem")).toContainText("Bella");
      });
    } finally {
      await theirs.close();
      await owners.close();
    }
  });
});
