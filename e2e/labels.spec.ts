import sharp from "sharp";
import type { Download } from "@playwright/test";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, newAccount, registerByApi, signInWithForm } from "./support/accounts";
import { mintTagsAsAdmin } from "./support/tags";

async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

function pdfPages(pdf: Buffer): { count: number; boxes: number[][] } {
  const text = pdf.toString("latin1");
  const boxes = [...text.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((match) => [Math.round(Number(match[1])), Math.round(Number(match[2]))]);
  return { count: text.match(/\/Type \/Page\b(?!s)/g)?.length ?? 0, boxes };
}

test.describe("QR labels as files", () => {
  test("download a tag's label as PNG and PDF, and a sticker sheet of ticked tags from the list", async ({ page, browser, request }, testInfo) => {
    test.setTimeout(180_000);
    const { codes, adminPage } = await mintTagsAsAdmin(browser, 3);
    await adminPage.context().close();

    const account = newAccount("labels");
    await registerByApi(request, account);
    await signInWithForm(page, account);

    await test.step("activate three tags", async () => {
      await page.goto("/dashboard/tags/activate");
      const bulk = page.getByRole("form", { name: "Activate several tags" });
      await waitForHydration(bulk.getByRole("button", { name: "Activate all" }));
      await bulk.getByLabel("Tag codes").fill(codes.join("\n"));
      await bulk.getByRole("button", { name: "Activate all" }).click();
      await expect(bulk).toContainText("3 tags were activated.");
    });

    await test.step("the list's sticker sheet: nothing ticked is said at once; two ticked download one Letter PDF", async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/dashboard/tags");
      const rows = page.getByRole("list", { name: "Tags" }).getByRole("listitem");
      await expect(rows).toHaveCount(3);
      const sheet = page.getByRole("form", { name: "Sticker sheet" });
      const submit = sheet.getByRole("button", { name: "Download sticker sheet (PDF)" });
      await waitForHydration(submit);
      await submit.click();
      await expect(sheet.getByRole("status")).toHaveText("Tick at least one tag in the list below first.");
      await expect(page).toHaveURL(/\/dashboard\/tags$/);

      await page.getByRole("checkbox", { name: `Put Unnamed tag (${codes[0]}) on the sticker sheet` }).check();
      // Keyboard: Space ticks the focused box.
      const second = page.getByRole("checkbox", { name: `Put Unnamed tag (${codes[2]}) on the sticker sheet` });
      await second.focus();
      await page.keyboard.press("Space");
      await expect(second).toBeChecked();
      await sheet.getByLabel("Paper").selectOption("letter");
      await sheet.getByLabel("Label size").selectOption("medium");
      await sheet.getByLabel("Language for the finder").selectOption("fr");
      await expectNoHorizontalScroll(page, 390);
      await expectRenderedScreenshot(page, testInfo, "tag-list-sticker-sheet-390");

      const [download] = await Promise.all([page.waitForEvent("download"), submit.click()]);
      expect(download.suggestedFilename()).toBe("tag-labels-letter-medium-2.pdf");
      const pdf = await downloadedBytes(download);
      expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(pdf.length).toBeGreaterThan(2_000);
      // One US Letter page (612 × 792 pt) holds both medium labels.
      expect(pdfPages(pdf)).toEqual({ count: 1, boxes: [[612, 792]] });
      await expect(sheet.getByText("Tick at least one tag")).toBeHidden();
    });

    await test.step("the label page offers each format in each size; a small PNG and a large PDF download", async () => {
      await page.getByRole("link", { name: "Print label for Unnamed tag" }).first().click();
      await expect(page.getByRole("heading", { level: 1, name: "QR label" })).toBeVisible();
      const downloads = page.getByRole("region", { name: "Download the label" });
      await expect(downloads.getByRole("link")).toHaveCount(9);
      await expectNoHorizontalScroll(page, 390);
      await downloads.scrollIntoViewIfNeeded();
      await expectRenderedScreenshot(page, testInfo, "tag-label-downloads-390");

      const png = downloads.getByRole("link", { name: "Download the small label (25 × 31 mm) as PNG" });
      const [pngDownload] = await Promise.all([page.waitForEvent("download"), png.click()]);
      expect(pngDownload.suggestedFilename()).toMatch(/^tag-[0-9A-Z]{5}-[0-9A-Z]{5}-label-small\.png$/);
      const meta = await sharp(await downloadedBytes(pngDownload)).metadata();
      expect([meta.format, meta.width, meta.height, meta.density]).toEqual(["png", 591, 732, 600]);

      // From the keyboard: focus the link and press Enter.
      await downloads.getByRole("link", { name: "Download the large label (50 × 62 mm) as PDF" }).focus();
      const [pdfDownload] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
      expect(pdfDownload.suggestedFilename()).toMatch(/^tag-[0-9A-Z]{5}-[0-9A-Z]{5}-label-large\.pdf$/);
      const pdf = await downloadedBytes(pdfDownload);
      expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      // 50 × 62 mm in points.
      expect(pdfPages(pdf)).toEqual({ count: 1, boxes: [[142, 176]] });

      await page.setViewportSize({ width: 1280, height: 800 });
      await expectRenderedScreenshot(page, testInfo, "tag-label-downloads-1280");
    });

    await test.step("the label speaks to its finder in the language the owner picks, and the downloads follow", async () => {
      await expect(page.getByTestId("call-to-action")).toHaveText("Found me? Scan to reach my owner");
      await page.getByRole("form", { name: "Label language" }).getByLabel("Language for the finder").selectOption("de");
      await page.getByRole("form", { name: "Label language" }).getByRole("button", { name: "Show", exact: true }).click();
      await expect(page).toHaveURL(/\?lang=de$/);
      await expect(page.getByTestId("call-to-action")).toHaveText("Gefunden? Scannen und meinen Besitzer erreichen");
      await expect(page.getByTestId("found-address")).toContainText("Keine Kamera? Code eingeben unter");
      const pdfLink = page.getByRole("region", { name: "Download the label" }).getByRole("link", { name: "Download the medium label (38 × 47 mm) as PDF" });
      await expect(pdfLink).toHaveAttribute("href", /&lang=de$/);
      await expectNoHorizontalScroll(page, 1280);
    });
  });
});
