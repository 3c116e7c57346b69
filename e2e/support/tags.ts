import sharp from "sharp";
import type { Browser, Page } from "@playwright/test";
import { expect, waitForHydration } from "./fixtures";
import { signInWithForm } from "./accounts";
import { e2eAdmin } from "./server-env";

/** A small real PNG (a two-colour square), as a photo upload would send it. */
export async function samplePng(): Promise<Buffer> {
  const half = await sharp({ create: { width: 40, height: 80, channels: 3, background: { r: 29, g: 78, b: 216 } } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 80, height: 80, channels: 3, background: { r: 250, g: 204, b: 21 } } })
    .composite([{ input: half, left: 0, top: 0 }])
    .png()
    .toBuffer();
}

/**
 * Signs the seeded admin in on a page of its own browser context, mints `count` tags on the admin page
 * and returns their printed codes (and the page, for screenshots). The caller closes the context.
 */
export async function mintTagsAsAdmin(browser: Browser, count: number): Promise<{ codes: string[]; adminPage: Page; csv: string }> {
  const context = await browser.newContext();
  const adminPage = await context.newPage();
  await signInWithForm(adminPage, e2eAdmin);
  await adminPage.goto("/admin/tags");
  await expect(adminPage.getByRole("heading", { level: 1, name: "Mint tags" })).toBeVisible();
  const mint = adminPage.getByRole("button", { name: "Mint tags" });
  await waitForHydration(mint);
  await adminPage.getByLabel("How many").fill(String(count));
  await mint.click();
  await expect(adminPage.getByRole("status").filter({ hasText: `${count} tags were minted.` })).toBeVisible();
  const codes = (await adminPage.getByRole("list", { name: "Minted codes" }).getByRole("listitem").allInnerTexts()).map((code) => code.trim());
  expect(codes).toHaveLength(count);
  for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);

  const [download] = await Promise.all([adminPage.waitForEvent("download"), adminPage.getByRole("link", { name: "Download CSV" }).click()]);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  const csv = Buffer.concat(chunks).toString("utf8");
  return { codes, adminPage, csv };
}
