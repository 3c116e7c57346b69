// Summarises a V8 CPU profile (`node --cpu-prof …`, e.g. of `next start` under load) by package, as bench/README.md's
// "Where the time goes" does: self time per package, bundled server chunks mapped to their sources through
// the build's source maps, native frames counted with their JavaScript caller.
// Usage: node scripts/cpu-profile-summary.mjs <file.cpuprofile>   (REQ=<requests> adds ms per request,
// TOPFN=<n> lists the n heaviest functions, JSON=1 prints the totals as JSON, LAST_MS below)
import { readFileSync, existsSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

const file = process.argv[2];
const profile = JSON.parse(readFileSync(file, "utf8"));
// LAST_MS=<ms> counts only the samples of <ms> ending SKIP_LAST_MS (default 0) before the profile's end: the
// steady load, without the start-up's module loading (which a short run of a route that loads many modules
// would otherwise spread over its requests) or the shut-down.
const LAST_MS = Number(process.env.LAST_MS || 0);
const SKIP_LAST_MS = Number(process.env.SKIP_LAST_MS || 0);
const at = [];
for (let i = 0, t = 0; i < profile.samples.length; i++) at.push((t += profile.timeDeltas[i] ?? 0));
const until = LAST_MS ? (at.at(-1) ?? 0) - SKIP_LAST_MS * 1000 : Infinity;
const from = LAST_MS ? until - LAST_MS * 1000 : -Infinity;
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) if (at[i] >= from && at[i] <= until) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const maps = new Map();
function mapFor(url) {
  if (!maps.has(url)) {
    let map = null;
    try {
      const path = fileURLToPath(url);
      if (existsSync(path + ".map")) map = new SourceMap(JSON.parse(readFileSync(path + ".map", "utf8")));
    } catch {}
    maps.set(url, map);
  }
  return maps.get(url);
}
function packageOf(path) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (m) {
    const pkg = m[1];
    if (pkg === "next") {
      if (/compiled\/next-server|server\/(base-server|next-server|lib\/router|route-modules|app-render|request|web\/spec-extension|lib\/patch|async-storage)/.test(path)) return "next (routing, request/response)";
      return "next (other)";
    }
    // drizzle-orm's own source maps name its files node_modules/src/….
    return pkg === "src" ? "drizzle-orm" : pkg;
  }
  if (/\[project\]\/(lib|app|db)\//.test(path) || /\/(lib|app|db)\//.test(path)) return "ours (lib/, app/, db/)";
  return null;
}
function category(node) {
  const { url, functionName, lineNumber, columnNumber } = node.callFrame;
  if (functionName === "(garbage collector)") return "GC";
  if (functionName === "(idle)") return "(idle)";
  if (functionName === "(program)") return "(program: native/VM)";
  if (!url) return "native (V8 builtins, C++)";
  if (url.startsWith("node:")) {
    if (/http|_http|net|stream|undici|fetch|web\/|url/.test(url)) return "Node HTTP/streams/web";
    if (/crypto/.test(url)) return "Node crypto";
    return "Node core (other)";
  }
  if (url.includes("/.next/server/")) {
    const map = mapFor(url);
    if (map) {
      const entry = map.findEntry(lineNumber, columnNumber);
      const source = entry?.originalSource;
      if (source) return packageOf(decodeURIComponent(source)) ?? `bundled: ${source.slice(0, 60)}`;
    }
    return "bundled (unmapped)";
  }
  return packageOf(url) ?? url.slice(0, 80);
}
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
const catCache = new Map();
function effective(node) {
  if (catCache.has(node.id)) return catCache.get(node.id);
  let c = category(node);
  if ((c.startsWith("native") || c === "Node core (other)") && parentOf.get(node.id)) {
    const parent = effective(parentOf.get(node.id));
    if (!parent.startsWith("native") && parent !== "(root)") c = c === "Node core (other)" && parent === "Node core (other)" ? c : c.startsWith("native") ? parent : c;
  }
  if (node.callFrame.functionName === "(root)") c = "(root)";
  catCache.set(node.id, c);
  return c;
}
/** A frame's place: for a bundled chunk its original source file and line (through the source map). */
function where({ url, lineNumber, columnNumber }) {
  if (url.includes("/.next/server/")) {
    const entry = mapFor(url)?.findEntry(lineNumber, columnNumber);
    if (entry?.originalSource) return `${decodeURIComponent(entry.originalSource).split("/").slice(-2).join("/")}:${entry.originalLine + 1}`;
  }
  return url.split("/").slice(-2).join("/");
}
const fnTotals = new Map();
const totals = new Map();
let all = 0;
for (const node of profile.nodes) {
  const t = self.get(node.id) ?? 0;
  if (!t) continue;
  const c = effective(node);
  const fk = `${c} :: ${node.callFrame.functionName || "(anon)"} ${where(node.callFrame)}`;
  fnTotals.set(fk, (fnTotals.get(fk) ?? 0) + t);
  totals.set(c, (totals.get(c) ?? 0) + t);
  all += t;
}
const idle = totals.get("(idle)") ?? 0;
const busy = all - idle;
const REQ = Number(process.env.REQ || 0);
if (process.env.JSON) { console.log(JSON.stringify({ busy, totals: Object.fromEntries(totals) })); process.exit(0); }
console.log(`${file}: total ${(all / 1000).toFixed(0)} ms sampled, busy ${(busy / 1000).toFixed(0)} ms`);
for (const [c, t] of [...totals].sort((a, b) => b[1] - a[1])) {
  if (c === "(idle)") continue;
  const pct = (100 * t) / busy;
  if (pct >= 0.5) console.log(`  ${pct.toFixed(1).padStart(5)}%  ${(t / 1000).toFixed(0).padStart(6)} ms ${REQ ? (t / 1000 / REQ).toFixed(3) + " ms/req" : ""} ${c}`);
}

if (process.env.TOPFN) for (const [k, t] of [...fnTotals].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOPFN))) console.log(`    ${(100 * t / busy).toFixed(1)}% ${k}`);
