import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { Endpoint } from "@/lib/http";
import * as endpointModule from "@/lib/http/endpoints";
import { ROOT, routeFilePath, routeFiles } from "../support/route-files";

// A contract and the file that serves it can never drift apart: every contract in `allEndpoints` is
// served by the route file at its `path` (`{id}` ↔ `[id]`), exported under its `method` and built with
// `route(thatContract, …)`; and every handler a route file under app/api exports comes from a contract
// for that file's path. Read from the source text, so no route module (and no database) is loaded.

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);

/** Route files under app/api that deliberately have no endpoint contract, and why. */
const UNCONTRACTED: Record<string, string> = {
  "app/api/auth/[...nextauth]/route.ts": "next-auth's own sign-in, CSRF, session and sign-out endpoints for the web pages",
  "app/api/photos/[photoId]/route.ts": "a photo's bytes for <img> tags: not a JSON API endpoint, outside the envelope",
  "app/api/bench-floor/route.ts": "the bench's framework floor: an empty handler with no kernel by design, 404 unless BENCH_FLOOR is set",
  "app/api/bench-floor/stream/route.ts": "the bench's framework floor of a live stream: a bare event stream, 404 unless BENCH_FLOOR is set",
  "app/api/bench-floor/memory/route.ts": "the bench's memory reading (after a full GC) for the scale-out: no kernel by design, 404 unless BENCH_FLOOR is set",
  "app/api/bench-floor/path/[id]/route.ts": "the bench's framework floor of a route with a path parameter (the scan's kind): an empty handler, 404 unless BENCH_FLOOR is set",
  "app/api/metrics/route.ts": "the Prometheus text format for a scraper, not a JSON API endpoint: 404 unless METRICS_TOKEN is set",
};

/**
 * Static routes that stand for a dynamic route file (the server's request hook sends its hottest requests
 * there: docs/decisions/0054-static-scan-route.md): each exports the same methods, each the dynamic file's
 * own handler (wrapped to take the parameter the hook stamps) or re-exported from it.
 */
const STATIC_STAND_INS: Record<string, string> = {
  "app/api/v1/scan/view/route.ts": "app/api/v1/scan/[encryptedId]/route.ts",
};

/** The HTTP methods a route file exports, in any form. */
function exportedMethods(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
        else if (ts.isObjectBindingPattern(declaration.name)) names.push(...declaration.name.elements.map((element) => element.name.getText(source)));
      }
    } else if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      names.push(...statement.exportClause.elements.map((element) => element.name.text));
    }
  }
  return names.filter((name) => METHODS.has(name)).sort();
}

/** What is wrong with a stand-in: a method the dynamic file lacks or it leaves out, or a handler not taken from that file. */
function standInDrift(file: string, text: string, standsFor: string, standsForText: string): string[] {
  const problems: string[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const fromStandsFor = (specifier: ts.Expression | undefined) =>
    specifier !== undefined && ts.isStringLiteral(specifier) && path.posix.join(path.posix.dirname(file), `${specifier.text}.ts`) === standsFor;
  const namespaces = new Set<string>();
  for (const statement of source.statements) {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamespaceImport(bindings) && fromStandsFor(ts.isImportDeclaration(statement) ? statement.moduleSpecifier : undefined)) namespaces.add(bindings.name.text);
  }
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const name = declaration.name.getText(source);
        if (!METHODS.has(name)) continue;
        const call = declaration.initializer && ts.isCallExpression(declaration.initializer) ? declaration.initializer : undefined;
        const taken = (call?.arguments ?? []).some(
          (argument) => ts.isPropertyAccessExpression(argument) && namespaces.has(argument.expression.getText(source)) && argument.name.text === name,
        );
        if (!taken) problems.push(`${name} is not ${standsFor}'s own ${name}`);
      }
    } else if (ts.isExportDeclaration(statement) && !fromStandsFor(statement.moduleSpecifier)) {
      problems.push(`re-exports from somewhere other than ${standsFor}`);
    }
  }
  const own = exportedMethods(file, text);
  const theirs = exportedMethods(standsFor, standsForText);
  if (own.join() !== theirs.join()) problems.push(`exports ${own.join(", ")}, where ${standsFor} exports ${theirs.join(", ")}`);
  return problems;
}

const groups = endpointModule as unknown as Record<string, Record<string, Endpoint> | undefined>;

interface RouteFileExports {
  /** `export const GET = route(tagEndpoints.get, …)` and `const x = route(…); export { x as GET }`. */
  handlers: { method: string; contract: Endpoint | undefined; source: string }[];
  /** `export const { POST, PUT } = otherMethods(a, b)`: the 405 answers and the contracts their Allow header lists. */
  rejecting: { methods: string[]; contracts: (Endpoint | undefined)[] }[];
  /** Exported method handlers that come from neither, so no contract can be tied to them. */
  unmatched: string[];
}

/** What a route file exports per HTTP method, and from which contract. */
function routeFileExports(fileName: string, text: string): RouteFileExports {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const result: RouteFileExports = { handlers: [], rejecting: [], unmatched: [] };
  const locals = new Map<string, { contract: Endpoint | undefined; source: string }>();

  const contractOf = (expression: ts.Expression | undefined): Endpoint | undefined => {
    if (!expression || !ts.isPropertyAccessExpression(expression) || !ts.isIdentifier(expression.expression)) return undefined;
    return groups[expression.expression.text]?.[expression.name.text];
  };
  const callTo = (expression: ts.Expression | undefined, name: string): ts.CallExpression | undefined =>
    expression && ts.isCallExpression(expression) && ts.isIdentifier(expression.expression) && expression.expression.text === name ? expression : undefined;
  const isExported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      const exported = isExported(statement);
      for (const declaration of statement.declarationList.declarations) {
        const routeCall = callTo(declaration.initializer, "route");
        const otherCall = callTo(declaration.initializer, "otherMethods");
        if (ts.isIdentifier(declaration.name)) {
          const name = declaration.name.text;
          const entry = routeCall ? { contract: contractOf(routeCall.arguments[0]), source: routeCall.arguments[0]?.getText(source) ?? "" } : undefined;
          if (!exported) {
            if (entry) locals.set(name, entry);
          } else if (entry) result.handlers.push({ method: name, ...entry });
          else if (METHODS.has(name)) result.unmatched.push(name);
        } else if (exported && ts.isObjectBindingPattern(declaration.name)) {
          const names = declaration.name.elements.map((element) => (element.propertyName ?? element.name).getText(source));
          if (otherCall) result.rejecting.push({ methods: names, contracts: otherCall.arguments.map(contractOf) });
          else result.unmatched.push(...names.filter((name) => METHODS.has(name)));
        }
      }
    } else if (ts.isFunctionDeclaration(statement) && isExported(statement) && statement.name && METHODS.has(statement.name.text)) {
      result.unmatched.push(statement.name.text);
    } else if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      const from = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
      for (const element of statement.exportClause.elements) {
        const exportedName = element.name.text;
        const localName = (element.propertyName ?? element.name).getText(source);
        if (from === "@/lib/http" && localName === "preflight" && exportedName === "OPTIONS") continue;
        const local = from === undefined ? locals.get(localName) : undefined;
        if (local) result.handlers.push({ method: exportedName, ...local });
        else if (METHODS.has(exportedName)) result.unmatched.push(exportedName);
      }
    }
  }
  return result;
}

/** A catch-all (`[...path]`) answers every method with its one contract: the 404 envelope for unknown paths. */
const isCatchAll = (file: string) => /\[\.\.\.[^\]]+\]/.test(file);

/** Everything wrong with one route file, as sentences; empty when it matches its contracts. */
function driftIn(file: string, exports: RouteFileExports): string[] {
  const problems: string[] = [];
  const filePath = routeFilePath(path.join(ROOT, file));
  for (const name of exports.unmatched) problems.push(`${name} is not built with route(<contract>) or otherMethods(…)`);
  for (const { method, contract, source } of exports.handlers) {
    if (!contract) problems.push(`${method} is built from ${source}, which is not a contract exported by lib/http/endpoints`);
    else if (!endpointModule.allEndpoints.includes(contract)) problems.push(`${method} is built from ${source}, which is missing from allEndpoints`);
    else {
      if (contract.path !== filePath) problems.push(`${method} is built from ${source}, whose path is ${contract.path}, not ${filePath}`);
      if (contract.method !== method && !isCatchAll(file)) problems.push(`${method} is built from ${source}, whose method is ${contract.method}`);
    }
  }
  const served = new Set(exports.handlers.map((handler) => handler.contract));
  for (const { methods, contracts } of exports.rejecting) {
    for (const contract of contracts) {
      if (!contract) problems.push("otherMethods(…) is given something that is not a contract");
      else if (!served.has(contract)) problems.push(`otherMethods(…) lists ${contract.method} ${contract.path}, which this file does not serve`);
    }
    const listed = new Set(contracts);
    for (const contract of served) if (contract && !listed.has(contract)) problems.push(`otherMethods(…) leaves out ${contract.method} ${contract.path}, so its Allow header does too`);
    for (const method of methods) if (exports.handlers.some((handler) => handler.method === method)) problems.push(`${method} is both served and rejected`);
  }
  return problems;
}

// app/webhooks holds the payment webhook at the second path the specification names (/webhooks/payment).
const files = [...routeFiles(path.join(ROOT, "app/api")), ...routeFiles(path.join(ROOT, "app/webhooks"))].map((file) => path.relative(ROOT, file).split(path.sep).join("/")).sort();
const analysed = new Map(files.map((file) => [file, routeFileExports(file, readFileSync(path.join(ROOT, file), "utf8"))]));

describe("route files match their endpoint contracts", () => {
  it("finds the route files and the contracts", () => {
    expect(files.filter((file) => file.startsWith("app/api/v1/")).length).toBeGreaterThan(20);
    expect(endpointModule.allEndpoints.length).toBeGreaterThan(20);
  });

  it("every contract is served by the route file at its path, under its method, built from that contract", () => {
    const byPath = new Map(files.map((file) => [routeFilePath(path.join(ROOT, file)), file]));
    const missing = endpointModule.allEndpoints.flatMap((contract) => {
      const file = byPath.get(contract.path);
      if (!file) return [`${contract.method} ${contract.path}: no route file at the path it names`];
      const served = analysed.get(file)!.handlers.some((handler) => handler.method === contract.method && handler.contract === contract);
      return served ? [] : [`${contract.method} ${contract.path}: ${file} exports no ${contract.method} built with route(<this contract>)`];
    });
    expect(missing).toEqual([]);
  });

  it("every route file under app/api serves only contracts for its own path and methods", () => {
    const drift = files.flatMap((file) => {
      if (file in UNCONTRACTED) return [];
      if (file in STATIC_STAND_INS) return [];
      const exports = analysed.get(file)!;
      const problems = driftIn(file, exports);
      if (exports.handlers.length === 0) problems.push("serves no endpoint contract");
      return problems.map((problem) => `${file}: ${problem}`);
    });
    expect(drift).toEqual([]);
  });

  it("the files without a contract are only the listed ones, outside /api/v1, and still exist", () => {
    for (const file of Object.keys(UNCONTRACTED)) {
      expect(files, file).toContain(file);
      expect(file.startsWith("app/api/v1/"), file).toBe(false);
      expect(analysed.get(file)!.handlers, `${file} now serves a contract: take it off the list`).toEqual([]);
    }
  });

  it("a static stand-in serves exactly its dynamic route file's handlers", () => {
    const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
    for (const [file, standsFor] of Object.entries(STATIC_STAND_INS)) {
      expect(files, file).toContain(file);
      expect(standInDrift(file, read(file), standsFor, read(standsFor)), file).toEqual([]);
    }
  });
});

describe("the check of a static stand-in", () => {
  const file = "app/api/v1/scan/view/route.ts";
  const standsFor = "app/api/v1/scan/[encryptedId]/route.ts";
  const dynamic = `export const GET = route(scanEndpoints.scan, async () => null);
export const { POST } = otherMethods(scanEndpoints.scan);
export { preflight as OPTIONS } from "@/lib/http";`;

  it("accepts the dynamic file's own handlers, wrapped or re-exported", () => {
    const text = `import * as scan from "../[encryptedId]/route";
export const GET = withStampedParam("encryptedId", scan.GET);
export const POST = withStampedParam("encryptedId", scan.POST);
export { OPTIONS } from "../[encryptedId]/route";`;
    expect(standInDrift(file, text, standsFor, dynamic)).toEqual([]);
  });

  it("reports another handler, another source, and a method left out", () => {
    const text = `import * as scan from "../[encryptedId]/route";
import * as other from "../../tags/route";
export const GET = withStampedParam("encryptedId", scan.POST);
export { OPTIONS } from "../../tags/route";`;
    expect(standInDrift(file, text, standsFor, dynamic)).toEqual([
      `GET is not ${standsFor}'s own GET`,
      `re-exports from somewhere other than ${standsFor}`,
      `exports GET, OPTIONS, where ${standsFor} exports GET, OPTIONS, POST`,
    ]);
  });
});

describe("the check itself", () => {
  const file = "app/api/v1/tags/[id]/route.ts";
  const check = (text: string) => driftIn(file, routeFileExports(file, text));

  it("accepts a file that serves its contracts", () => {
    expect(
      check(`export const GET = route(tagEndpoints.get, async () => null);
const release = route(tagEndpoints.release, async () => null);
export { release as DELETE };
export const PATCH = route(tagEndpoints.update, async () => null);
export const { POST, PUT } = otherMethods(tagEndpoints.get, tagEndpoints.update, tagEndpoints.release);
export { preflight as OPTIONS } from "@/lib/http";`),
    ).toEqual([]);
  });

  it("reports a contract for another path, the wrong method, an unknown contract and a plain handler", () => {
    expect(
      check(`export const GET = route(tagEndpoints.list, async () => null);
export const PATCH = route(tagEndpoints.get, async () => null);
export const DELETE = route(tagEndpoints.nothing, async () => null);
export async function PUT() { return new Response(); }`),
    ).toEqual([
      "PUT is not built with route(<contract>) or otherMethods(…)",
      "GET is built from tagEndpoints.list, whose path is /api/v1/tags, not /api/v1/tags/{id}",
      "PATCH is built from tagEndpoints.get, whose method is GET",
      "DELETE is built from tagEndpoints.nothing, which is not a contract exported by lib/http/endpoints",
    ]);
  });

  it("reports an Allow header that does not match the methods served", () => {
    expect(
      check(`export const GET = route(tagEndpoints.get, async () => null);
export const PATCH = route(tagEndpoints.update, async () => null);
export const { POST, PATCH: again } = otherMethods(tagEndpoints.get, tagEndpoints.list);`),
    ).toEqual([
      "otherMethods(…) lists GET /api/v1/tags, which this file does not serve",
      "otherMethods(…) leaves out PATCH /api/v1/tags/{id}, so its Allow header does too",
      "PATCH is both served and rejected",
    ]);
  });
});
