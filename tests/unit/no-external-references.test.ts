import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The reasoning behind the code lives in this repository (docs/architecture.md, docs/decisions/): a clone
// must be able to read why anything is the way it is. So no file outside docs/ may point to the design
// documents the project started from, which a clone does not contain. Point to docs/decisions/NNNN-….md
// instead (those paths are fine: the check looks for the old file names with their extension).

const ROOT = path.resolve(import.meta.dirname, "../..");

// Built from pieces so this file does not name them itself.
const FORBIDDEN = [["..", "shared"].join("/"), ["decisions", "md"].join("."), ["design", "md"].join("."), ["tag-service-api", "md"].join(".")];

/** Not ours to check: dependencies, build and test output, local data, and docs/ (which may name the specification). */
const SKIPPED_DIRECTORIES = new Set(["node_modules", ".next", ".git", "test-results", "playwright-report", "blob-report", "coverage", "out", ".data"]);
const SKIPPED_TOP_LEVEL = new Set(["docs", "bench/results"]);
const BINARY_EXTENSIONS = new Set([".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".pdf", ".ttf", ".woff", ".woff2", ".wasm", ".tsbuildinfo"]);


function* files(directory: string): Generator<string> {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    const relative = path.relative(ROOT, full).split(path.sep).join("/");
    if (entry.isDirectory()) {
      if (SKIPPED_DIRECTORIES.has(entry.name) || SKIPPED_TOP_LEVEL.has(relative)) continue;
      yield* files(full);
    } else if (entry.isFile() && !BINARY_EXTENSIONS.has(path.extname(entry.name)) && statSync(full).size < 5_000_000) {
      yield relative;
    }
  }
}

function externalReferences(): { file: string; line: number; text: string }[] {
  const found: { file: string; line: number; text: string }[] = [];
  for (const file of files(ROOT)) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    if (!FORBIDDEN.some((name) => text.includes(name))) continue;
    text.split("\n").forEach((line, index) => {
      if (FORBIDDEN.some((name) => line.includes(name))) found.push({ file, line: index + 1, text: line.trim() });
    });
  }
  return found;
}

describe("references to documents outside the repository", () => {
  it("no file outside docs/ names them (point into docs/ instead)", () => {
    const offending = externalReferences()
      .map(({ file, line, text }) => `${file}:${line}: ${text}`);
    expect(offending).toEqual([]);
  });

  it("sees a reference where there is one (the check itself works)", () => {
    expect(FORBIDDEN.some((name) => `see ${["..", "shared", "spec", ["decisions", "md"].join(".")].join("/")}`.includes(name))).toBe(true);
    expect(FORBIDDEN.some((name) => "see docs/decisions/0018-clone-detection-never-refuses.md".includes(name))).toBe(false);
  });
});
