import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The README is short and sends readers into docs/; a link that leads nowhere breaks that. Every relative
// Markdown link in the README, CONTRIBUTING.md, bench/README.md and docs/ must name a file that exists, and
// a `#fragment` into a Markdown file must name one of its headings (GitHub's slugs).

const ROOT = path.resolve(import.meta.dirname, "../..");

function markdownFiles(): string[] {
  const found = ["README.md", "CONTRIBUTING.md", "bench/README.md"];
  const walk = (directory: string) => {
    for (const entry of readdirSync(path.join(ROOT, directory), { withFileTypes: true })) {
      const relative = `${directory}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith(".md")) found.push(relative);
    }
  };
  walk("docs");
  return found.filter((file) => existsSync(path.join(ROOT, file)));
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, "")
    .replace(/ /g, "-");
}

function headings(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1]!)));
}

function brokenLinks(): string[] {
  const broken: string[] = [];
  for (const file of markdownFiles()) {
    const text = readFileSync(path.join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const link = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: …
      const [target, fragment] = link.split("#") as [string, string | undefined];
      const resolved = target ? path.resolve(ROOT, path.dirname(file), target) : path.join(ROOT, file);
      if (!existsSync(resolved)) broken.push(`${file}: ${link} (no such file)`);
      else if (fragment && resolved.endsWith(".md") && !headings(resolved).has(fragment)) broken.push(`${file}: ${link} (no such heading)`);
    }
  }
  return broken;
}

describe("documentation links", () => {
  it("every relative link in the README, CONTRIBUTING.md, bench/README.md and docs/ resolves", () => {
    expect(brokenLinks()).toEqual([]);
  });
});
