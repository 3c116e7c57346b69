import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileFinderCss, finderCssModule, GENERATED_PATH, PUBLIC_DIR, STYLESHEET_FILE } from "@/scripts/finder-css-compile";

describe("the finder page's stylesheet", () => {
  it("is up to date with the classes the page uses: run `npm run finder:css` after changing lib/finder-page or the theme", async () => {
    const { css, file } = await compileFinderCss();
    expect(await readFile(GENERATED_PATH, "utf8")).toBe(finderCssModule(file));
    expect(await readFile(path.join(PUBLIC_DIR, file), "utf8")).toBe(css);
    // One stylesheet in public/: the one the page links.
    expect((await readdir(PUBLIC_DIR)).filter((name) => STYLESHEET_FILE.test(name))).toEqual([file]);
    // What the page relies on is in it: the theme's colours, a card's classes, the buttons, the focus ring.
    for (const rule of [".bg-brand-700", ".rounded-xl", ".btn-primary", ".text-green-900", ":focus-visible", ".sm\\:flex-row"]) expect(css).toContain(rule);
    // Only the page's classes: the site's whole sheet is several times larger.
    expect(css.length).toBeLessThan(24_000);
  }, 30_000);
});
