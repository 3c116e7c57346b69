import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page, type TestInfo } from "@playwright/test";
import sharp from "sharp";

/**
 * `test` with a guard every spec gets: a Content-Security-Policy violation or an uncaught page error
 * anywhere in the test fails it. CSP problems otherwise show up only as a console line and a half-working
 * page, which is exactly the kind of regression a header change causes.
 */
export const test = base.extend<{ pageProblems: string[] }>({
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      await page.exposeFunction("__e2eReportCspViolation", (text: string) => problems.push(`CSP violation: ${text}`));
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          const report = (window as unknown as { __e2eReportCspViolation?: (text: string) => void }).__e2eReportCspViolation;
          report?.(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"} on ${event.documentURI}`);
        });
      });
      page.on("console", (message) => {
        if (message.type() === "error" && /Content Security Policy/i.test(message.text())) {
          problems.push(`console: ${message.text()}`);
        }
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));

      await use(problems);

      expect(problems, "CSP violations or uncaught errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Saves a screenshot under the test's output directory (and attaches it to the report), then checks it
 * shows rendered content, not a blank or single-colour page: the PNG is decoded in a separate blank tab
 * and must have many distinct colours with no one colour covering nearly all of it. The page as shown
 * is also held to axe's WCAG 2.1 A/AA rules (expectAccessible), so every state a spec looks at is checked.
 */
export async function expectRenderedScreenshot(page: Page, testInfo: TestInfo, name: string, options: { fullPage?: boolean; accessibilityExclude?: string[] } = {}) {
  const path = testInfo.outputPath(`${name}.png`);
  // Finished transitions: a button restyled a moment ago is shown as it stays, not half-faded.
  const png = await page.screenshot({ path, fullPage: options.fullPage ?? true, animations: "disabled" });
  await testInfo.attach(name, { path, contentType: "image/png" });

  const stats = await pixelStats(png);
  expect(stats.width, `${name}: screenshot width`).toBeGreaterThan(0);
  expect(stats.distinctColours, `${name}: distinct colours`).toBeGreaterThan(32);
  expect(stats.dominantShare, `${name}: share of the most common colour`).toBeLessThan(0.97);
  await expectAccessible(page, name, options.accessibilityExclude);
  return stats;
}

/**
 * Runs axe-core's WCAG 2.0/2.1 A and AA rules on the page (contrast, names and labels, landmarks, ARIA
 * use, …) and fails with each violation's rule, impact and the elements concerned. `exclude` leaves out
 * third-party widgets we do not render ourselves (selectors).
 */
export async function expectAccessible(page: Page, name: string, exclude: string[] = []) {
  const builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  for (const selector of exclude) builder.exclude(selector);
  const results = await builder.analyze();
  const violations = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    elements: violation.nodes.slice(0, 5).map((node) => `${node.target.join(" ")}: ${node.failureSummary?.split("\n").slice(1).join(" ").trim()}`),
  }));
  expect(violations, `${name}: accessibility violations`).toEqual([]);
}

/**
 * Colour statistics of a screenshot, decoded here (sharp) rather than in a browser page of its own: the
 * same figures, without a page, a base64 copy and a canvas per check (a twentieth of the time).
 */
async function pixelStats(png: Buffer) {
  const { data, info } = await sharp(png).toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
  const counts = new Map<number, number>();
  // Every 7th pixel is plenty to tell content from a flat page and keeps this fast.
  let sampled = 0;
  for (let offset = 0; offset < data.length; offset += info.channels * 7) {
    const key = ((data[offset]! << 16) | (data[offset + 1]! << 8) | data[offset + 2]!) >>> 0;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    sampled++;
  }
  let dominant = 0;
  for (const count of counts.values()) dominant = Math.max(dominant, count);
  return { width: info.width, height: info.height, distinctColours: counts.size, dominantShare: dominant / sampled };
}

/**
 * Waits until React has hydrated the element (it then carries React's internal fiber key), so that
 * keyboard input reaches the component's handlers instead of the inert server-rendered HTML.
 */
export async function waitForHydration(locator: import("@playwright/test").Locator) {
  await expect
    .poll(() => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactFiber$"))), {
      message: "element hydrated by React",
    })
    .toBe(true);
}
