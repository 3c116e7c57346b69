/**
 * Writes the finder's page's stylesheet, compiled by Tailwind from lib/finder-page/finder.css, to
 * public/finder-page.<hash>.css (removing the one it replaces), and its address to
 * lib/finder-page/finder-css.generated.ts (docs/finder-page.md). `npm run finder:css`; the unit test
 * tests/unit/finder-css.test.ts fails when either is out of date.
 */
import { readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { compileFinderCss, finderCssModule, GENERATED_PATH, PUBLIC_DIR, STYLESHEET_FILE } from "./finder-css-compile";

async function main() {
  const { css, file } = await compileFinderCss();
  for (const old of await readdir(PUBLIC_DIR)) if (STYLESHEET_FILE.test(old) && old !== file) await rm(path.join(PUBLIC_DIR, old));
  await writeFile(path.join(PUBLIC_DIR, file), css);
  await writeFile(GENERATED_PATH, finderCssModule(file));
  console.log(`public/${file}: ${css.length} bytes`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
