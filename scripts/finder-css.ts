/**
 * Writes lib/finder-page/finder-css.generated.ts: the finder's page's inline stylesheet, compiled by
 * Tailwind from lib/finder-page/finder.css (docs/finder-page.md). `npm run finder:css`; the unit test
 * tests/unit/finder-css.test.ts compares the committed file with a fresh compile.
 */
import { writeFile } from "node:fs/promises";
import { compileFinderCss, finderCssModule, GENERATED_PATH } from "./finder-css-compile";

async function main() {
  const css = await compileFinderCss();
  await writeFile(GENERATED_PATH, finderCssModule(css));
  console.log(`${GENERATED_PATH}: ${css.length} bytes of CSS`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
