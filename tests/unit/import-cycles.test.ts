import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { graphLoops } from "../support/graph-loops";

/**
 * No import loop among the application's files, counting `import type` too. eslint's import/no-cycle skips
 * type-only imports; a loop of them still ties the files' layers together (the job registry's data types
 * once made services, lib/jobs/enqueue.ts and every job handler one loop of 34 files).
 */

const ROOT = path.resolve(__dirname, "../..");
const SOURCE_DIRS = ["app", "components", "db", "emails", "lib", "scripts"];
const ROOT_FILES = ["proxy.ts", "instrumentation.ts"];
const EXTENSIONS = [".ts", ".tsx", ".mts", ".js", ".mjs"];

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== "node_modules" && name !== "migrations" && !name.startsWith(".")) files.push(...sourceFiles(full));
    } else if (EXTENSIONS.includes(path.extname(name)) && !name.endsWith(".d.ts")) {
      files.push(full);
    }
  }
  return files;
}

function resolveImport(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(ROOT, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return undefined; // a package
  for (const candidate of [base, ...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => path.join(base, `index${ext}`))]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Static imports and re-exports, `import type` included; `import()` is lazy and draws no edge. */
const IMPORT = /(?:^|[\n;])\s*(?:import|export)\s+(?:type\s+)?(?:[^;"'`]*?\s+from\s+)?["']([^"']+)["']/g;

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/[^\n]*/g, "$1");
}

function importGraph(): Map<string, string[]> {
  const files = [...SOURCE_DIRS.filter((dir) => existsSync(path.join(ROOT, dir))).flatMap((dir) => sourceFiles(path.join(ROOT, dir))), ...ROOT_FILES.map((file) => path.join(ROOT, file)).filter(existsSync)];
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of withoutComments(readFileSync(file, "utf8")).matchAll(IMPORT)) {
      const target = resolveImport(file, match[1]!);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Strongly connected components of more than one file, as paths from the repository's root. */
function loops(graph: Map<string, string[]>): string[][] {
  return graphLoops(graph).map((component) => component.map((file) => path.relative(ROOT, file)).sort());
}

describe("import structure", () => {
  it("reads the imports it checks (a sanity check of the reader)", () => {
    const graph = importGraph();
    const enqueue = graph.get(path.join(ROOT, "lib/jobs/enqueue.ts"))!.map((file) => path.relative(ROOT, file));
    expect(enqueue).toEqual(expect.arrayContaining(["lib/jobs/catalog.ts", "lib/jobs/boss.ts", "lib/services/context.ts"]));
  });

  it("has no import loop, type-only imports included", () => {
    expect(loops(importGraph())).toEqual([]);
  }, 30_000);
});
