import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { graphLoops } from "../support/graph-loops";

/**
 * The service domains (lib/services/<domain>/) as a graph: an edge A → B when a file of A imports a file
 * of B, `import type` included. A loop among domains ties them into one (each needs the other loaded or
 * typed first), and with index-only imports it becomes a loop of files. docs/architecture.md states the rule.
 */

const SERVICES = path.resolve(__dirname, "../../lib/services");
const EXTENSIONS = [".ts", ".tsx"];

const IMPORT = /(?:^|[\n;])\s*(?:import|export)\s+(?:type\s+)?(?:[^;"'`]*?\s+from\s+)?["']([^"']+)["']/g;

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/[^\n]*/g, "$1");
}

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesOf(full);
    return EXTENSIONS.includes(path.extname(name)) ? [full] : [];
  });
}

/** The domain an import points into (its index or an inner file), or undefined (lib/services/context.ts, a package …). */
function domainOf(from: string, specifier: string): string | undefined {
  let resolved: string;
  if (specifier.startsWith("@/lib/services/")) resolved = path.join(SERVICES, specifier.slice("@/lib/services/".length));
  else if (specifier.startsWith(".")) resolved = path.resolve(path.dirname(from), specifier);
  else return undefined;
  const relative = path.relative(SERVICES, resolved);
  if (relative.startsWith("..")) return undefined;
  const first = relative.split(path.sep)[0]!;
  return existsSync(path.join(SERVICES, first)) && statSync(path.join(SERVICES, first)).isDirectory() ? first : undefined;
}

function domainGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const domains = readdirSync(SERVICES).filter((name) => statSync(path.join(SERVICES, name)).isDirectory());
  for (const domain of domains) graph.set(domain, new Set());
  for (const domain of domains) {
    for (const file of filesOf(path.join(SERVICES, domain))) {
      for (const match of withoutComments(readFileSync(file, "utf8")).matchAll(IMPORT)) {
        const other = domainOf(file, match[1]!);
        if (other && other !== domain) graph.get(domain)!.add(other);
      }
    }
  }
  return graph;
}

/** Strongly connected components of more than one domain, each sorted. */
const loops = (graph: Map<string, Set<string>>): string[][] => graphLoops(graph);

describe("service domains", () => {
  it("reads the imports between domains (a sanity check of the reader)", () => {
    const graph = domainGraph();
    expect([...graph.get("account")!]).toEqual(expect.arrayContaining(["auth", "tags", "messages"]));
    expect([...graph.get("users")!].sort()).toEqual(["audit", "auth", "notifications"]);
  });

  it("have no import loop among them, type-only imports included", () => {
    expect(loops(domainGraph())).toEqual([]);
  });

  it("auth and notifications are below the domains that use them: neither imports another domain's code but auth", () => {
    const graph = domainGraph();
    expect([...graph.get("auth")!]).toEqual([]);
    expect([...graph.get("notifications")!]).toEqual(["auth"]);
  });
});
