import { expect, expectRenderedScreenshot, test } from "./support/fixtures";
import { expectNoHorizontalScroll, newAccount, registerByApi, signInWithForm } from "./support/accounts";
import { e2eBaseUrl } from "./support/server-env";
import { mintTagsAsAdmin, samplePng } from "./support/tags";
import sharp from "sharp";
import { pdfPagePng, pdfWords } from "../tests/support/pdf";

const IPHONE_SAFARI = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1";
const SLACKBOT = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)";

/** Pages in a PDF (each page object has `/Type /Page`; the page tree is `/Type /Pages`). */
function pdfPageCount(pdf: Buffer): number {
  return pdf.toString("latin1").match(/\/Type\s*\/Page(?!s)/g)?.length ?? 0;
}

test.use({ viewport: { width: 390, height: 844 } });

test("the owner sees every scan with its class and the finder's shared location, and prints a lost poster", async ({ page, browser, request, playwright }, testInfo) => {
  test.setTimeout(180_000);

  const [code] = await test.step("an admin mints tags", async () => {
    // The helper reads the plural confirmation ("2 tags were minted."); one of them is used.
    const { codes, adminPage } = await mintTagsAsAdmin(browser, 2);
    await adminPage.context().close();
    return codes;
  });

  const account = newAccount("scans");
  const tag = await test.step("the owner claims it through the API: a lost pet with a photo", async () => {
    // Registering signs that context in with a cookie; the API calls below use a bearer token instead.
    const signUp = await playwright.request.newContext({ baseURL: e2eBaseUrl });
    await registerByApi(signUp, account);
    await signUp.dispose();
    const login = await request.post("/api/v1/auth/login", { data: { email: account.email, password: account.password } });
    expect(login.status()).toBe(200);
    const auth = { Authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
    const activated = await request.post("/api/v1/tags/activate", { headers: auth, data: { code, tagType: "PET", itemName: "Rex" } });
    expect(activated.status(), await activated.text()).toBe(201);
    const record = (await activated.json()).data as { id: string; encryptedId: string };
    const profile = await request.patch(`/api/v1/profiles/${record.id}`, { headers: auth, data: { description: "Small beagle with a red collar and a white tail tip.", ownerName: "Ada", contactEmail: "ada.private@example.com" } });
    expect(profile.status()).toBe(200);
    expect((await request.put(`/api/v1/profiles/${record.id}/pet`, { headers: auth, data: { petName: "Rex", species: "Dog", breed: "Beagle", color: "Brown and white" } })).status()).toBe(200);
    const photo = await request.post(`/api/v1/profiles/${record.id}/photos`, { headers: auth, multipart: { file: { name: "rex.png", mimeType: "image/png", buffer: await samplePng() } } });
    expect(photo.status()).toBe(201);
    const lost = await request.patch(`/api/v1/tags/${record.id}/status`, { headers: auth, data: { status: "LOST", lostMessage: "He is shy: please message me through the tag." } });
    expect(lost.status(), await lost.text()).toBe(200);
    return record;
  });
  const scanPath = `/api/v1/scan/${tag.encryptedId}`;

  await test.step("finders, bots and the owner scan the tag", async () => {
    // A fresh context per finder: no cookie of the owner's.
    const finder = await playwright.request.newContext({ baseURL: e2eBaseUrl, extraHTTPHeaders: { "User-Agent": IPHONE_SAFARI } });
    const first = await finder.get(scanPath);
    expect(first.status()).toBe(200);
    const view = (await first.json()).data;
    expect(view).toMatchObject({ itemName: "Rex", status: "LOST", contactEnabled: true });
    expect(JSON.stringify(view)).not.toContain("ada.private@example.com");
    expect((await finder.get(scanPath)).status()).toBe(200); // the same phone again: REPEAT
    expect((await finder.head(scanPath)).status()).toBe(200); // PREFETCH
    const shared = await finder.post(`${scanPath}/location`, { data: { latitude: 51.50135, longitude: -0.14189, accuracy: 20 } });
    expect(shared.status(), await shared.text()).toBe(201);
    await finder.dispose();

    const slack = await playwright.request.newContext({ baseURL: e2eBaseUrl, extraHTTPHeaders: { "User-Agent": SLACKBOT } });
    expect((await slack.get(scanPath)).status()).toBe(200);
    await slack.dispose();

    await signInWithForm(page, account);
    // The owner's own browser (its session cookie): OWNER.
    expect((await page.request.get(scanPath)).status()).toBe(200);
  });

  await test.step("the tag page lists each scan with its class, agent and place, and the shared location's map links", async () => {
    await page.goto(`/dashboard/tags/${tag.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Rex" })).toBeVisible();
    // The scan history is under "More"; the summary's scan count opens it there.
    await page.getByRole("link", { name: /^\d+ scans?$/ }).click();
    await expect(page).toHaveURL(/\?more=1#scans-heading$/);
    const history = page.getByRole("region", { name: "Scan history" });
    const items = history.getByRole("list", { name: "Scans" }).getByRole("listitem");
    await expect(items).toHaveCount(6);
    // Newest first.
    await expect(items.nth(0)).toHaveAttribute("data-scan-class", "OWNER");
    await expect(items.nth(0)).toContainText("You");
    await expect(items.nth(1)).toHaveAttribute("data-scan-class", "BOT");
    await expect(items.nth(1)).toContainText("Bot or link preview");
    await expect(items.nth(1)).toContainText("Slackbot link preview");
    await expect(items.nth(2)).toHaveAttribute("data-scan-class", "LOCATION");
    await expect(items.nth(2)).toContainText("Location shared");
    await expect(items.nth(2)).toContainText("51.50135, -0.14189 (within 20 m)");
    await expect(items.nth(2).getByRole("link", { name: /Open in OpenStreetMap/ })).toHaveAttribute(
      "href",
      "https://www.openstreetmap.org/?mlat=51.50135&mlon=-0.14189#map=17/51.50135/-0.14189",
    );
    await expect(items.nth(2).getByRole("link", { name: /Open in your maps app/ })).toHaveAttribute("href", "geo:51.50135,-0.14189");
    await expect(items.nth(3)).toHaveAttribute("data-scan-class", "PREFETCH");
    await expect(items.nth(3)).toContainText("Prefetch");
    await expect(items.nth(4)).toHaveAttribute("data-scan-class", "REPEAT");
    await expect(items.nth(4)).toContainText("Repeat");
    await expect(items.nth(5)).toHaveAttribute("data-scan-class", "REAL");
    await expect(items.nth(5)).toContainText("Real scan");
    await expect(items.nth(5)).toContainText("iPhone · Safari");
    await history.scrollIntoViewIfNeeded();
    await expectNoHorizontalScroll(page, 390);
    await expectRenderedScreenshot(page, testInfo, "tag-scan-history-390");
  });

  await test.step("a longer history pages by cursor: Older scans, then Newest scans", async () => {
    // Five more (the same phone again: repeats) make 11, one more than a page holds.
    const finder = await playwright.request.newContext({ baseURL: e2eBaseUrl, extraHTTPHeaders: { "User-Agent": IPHONE_SAFARI } });
    for (let index = 0; index < 5; index += 1) expect((await finder.get(scanPath)).status()).toBe(200);
    await finder.dispose();
    // Not the address the page is at (a change of hash alone would not load it again).
    await page.goto(`/dashboard/tags/${tag.id}?more=1`);
    const history = page.getByRole("region", { name: "Scan history" });
    await expect(history.getByRole("list", { name: "Scans" }).getByRole("listitem")).toHaveCount(10);
    await history.getByRole("navigation", { name: "Scan history pages" }).getByRole("link", { name: "Older scans" }).click();
    await expect(page).toHaveURL(/\?scans=[A-Za-z0-9_.-]+#scans-heading$/);
    const older = page.getByRole("region", { name: "Scan history" }).getByRole("list", { name: "Scans" }).getByRole("listitem");
    await expect(older).toHaveCount(1);
    await expect(older.nth(0)).toHaveAttribute("data-scan-class", "REAL");
    await page.getByRole("navigation", { name: "Scan history pages" }).getByRole("link", { name: "Newest scans" }).click();
    await expect(page.getByRole("region", { name: "Scan history" }).getByRole("list", { name: "Scans" }).getByRole("listitem")).toHaveCount(10);
    await page.goto(`/dashboard/tags/${tag.id}`);
  });

  await test.step("the lost poster: photo, description, message, QR code and code, and one printed page", async () => {
    await page.getByRole("link", { name: "Print a lost poster" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Lost poster" })).toBeVisible();
    const poster = page.getByRole("article", { name: "Poster for Rex" });
    await expect(poster).toContainText("Lost");
    await expect(poster).toContainText("Dog · Beagle · Brown and white");
    await expect(poster).toContainText("Small beagle with a red collar");
    await expect(poster).toContainText("“He is shy: please message me through the tag.”");
    await expect(poster).toContainText("Scan to contact the owner anonymously");
    await expect(poster).not.toContainText("ada.private@example.com");
    await expect(poster).not.toContainText("Reward");
    // The owner says where and when it was last seen; the poster prints it as written.
    const lastSeen = page.getByRole("form", { name: "Last seen" });
    await lastSeen.getByLabel("Last seen where").fill("Riverside Park, east gate");
    await lastSeen.getByLabel("Last seen when").fill("Saturday 14 June, around 6 pm");
    await lastSeen.getByRole("button", { name: "Save", exact: true }).click();
    await expect(poster.getByTestId("poster-last-seen")).toHaveText("Last seen: Riverside Park, east gate, Saturday 14 June, around 6 pm");
    await expect(poster.getByTestId("poster-code")).toHaveText(code!);
    await expect(poster.getByRole("img", { name: `QR code for the tag ${code}` }).locator("svg")).toBeVisible();
    const photo = poster.getByRole("img", { name: "Photo of Rex" });
    await expect.poll(() => photo.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await expectNoHorizontalScroll(page, 390);
    await expectRenderedScreenshot(page, testInfo, "lost-poster-390");

    // Printing lays the page out at paper width (A4 is 794 CSS px wide), whatever the phone's screen is.
    await page.setViewportSize({ width: 794, height: 1123 });
    await page.emulateMedia({ media: "print" });
    await expect(poster).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Lost poster" })).toBeHidden();
    await expectRenderedScreenshot(page, testInfo, "lost-poster-print");
    for (const format of ["A4", "Letter"] as const) {
      const pdf = await page.pdf({ format, printBackground: true });
      await testInfo.attach(`lost-poster-${format}.pdf`, { body: pdf, contentType: "application/pdf" });
      expect(pdfPageCount(pdf), `${format} pages`).toBe(1);
    }
    // Printed without background colours (many browsers' default), "LOST" is still there in red ink:
    // rendered to an image (pdftoppm), the box pdftotext gives the word holds red pixels.
    const plain = await page.pdf({ format: "A4", printBackground: false });
    // The letter-spacing may split it into letters: take the run of words that spells it.
    const words = pdfWords(plain);
    const start = words.findIndex((_, index) => {
      let spelled = "";
      for (let next = index; next < words.length && spelled.length < 4; next++) spelled += words[next]!.text.toUpperCase();
      return spelled === "LOST";
    });
    expect(start, "LOST on the printed page").toBeGreaterThanOrEqual(0);
    let end = start;
    for (let spelled = words[start]!.text; spelled.length < 4; spelled += words[end]!.text) end++;
    const letters = words.slice(start, end + 1);
    const word = { xMin: Math.min(...letters.map((l) => l.xMin)), yMin: Math.min(...letters.map((l) => l.yMin)), xMax: Math.max(...letters.map((l) => l.xMax)), yMax: Math.max(...letters.map((l) => l.yMax)) };
    const dpi = 100;
    const { data, info } = await sharp(pdfPagePng(plain, dpi)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const px = (pt: number) => Math.round((pt / 72) * dpi);
    let red = 0;
    for (let y = px(word.yMin); y < px(word.yMax); y++) {
      for (let x = px(word.xMin); x < px(word.xMax); x++) {
        const at = (y * info.width + x) * info.channels;
        if (data[at]! > 150 && data[at + 1]! < 90 && data[at + 2]! < 90) red++;
      }
    }
    expect(red, "red ink in the LOST box").toBeGreaterThan(50);
    await page.emulateMedia({ media: "screen" });
    await page.setViewportSize({ width: 390, height: 844 });
  });
});
