import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { compileFinderCss, finderCssModule, GENERATED_PATH } from "@/scripts/finder-css-compile";

describe("the finder page's inline stylesheet", () => {
  it("is up to date with the classes the page uses: run `npm run finder:css` after changing lib/finder-page or the theme", async () => {
    const css = await compileFinderCss();
    expect(await readFile(GENERATED_PATH, "utf8")).toBe(finderCssModule(css));
    // What the page relies on is in it: the theme's colours, a card's classes, the buttons, the focus ring.
    for (const rule of [".bg-brand-700", ".rounded-xl", ".btn-primary", ".text-green-900", ":focus-visible", ".sm\\:flex-row"]) expect(css).toContain(rule);
    // Only the page's classes: the site's whole sheet is several times larger.
    expect(css.length).toBeLessThan(24_000);
  }, 30_000);
});
