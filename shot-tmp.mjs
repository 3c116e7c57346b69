import { chromium } from "@playwright/test";
const base = "http://localhost:3111";
const [,, path = "/dashboard/tags", name = "shot", width = "390", height = "844", full = "1"] = process.argv;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const context = await browser.newContext({ viewport: { width: Number(width), height: Number(height) } });
const page = await context.newPage();
await page.goto(base + "/login");
await page.getByLabel("E-mail").fill("demo@tagservice.local");
await page.getByLabel("Password", { exact: true }).fill("DemoTags2026");
await page.getByRole("button", { name: /Sign in/ }).click();
await page.waitForURL(/dashboard/);
let target = path;
if (path.startsWith("tag:")) {
  await page.goto(base + "/dashboard/tags?status=" + path.slice(4));
  const href = await page.getByRole("list", { name: "Tags" }).getByRole("link").first().getAttribute("href");
  target = href;
}
await page.goto(base + target, { timeout: 120000 });
const total = await page.evaluate(() => document.documentElement.scrollHeight);
console.log("height", total);
const seg = 1500;
for (let y = 0, i = 0; y < total && i < 8; y += seg, i++) {
  await page.screenshot({ path: `/tmp/shots/${name}-${i}.png`, fullPage: true, clip: { x: 0, y, width: Number(width), height: Math.min(seg, total - y) } });
  if (full !== "1") break;
}
console.log(page.url());
await browser.close();
