/**
 * `npm run bench -- --only=compare`: our server beside its two references, in one run, on real PostgreSQL
 * and Redis (issue 16, "The references, in the bench").
 *
 * - ours: ONE `next start` of the current build (`npm run build` first; nothing is built here), with
 *   RATE_LIMIT_MULTIPLIER large (the limiter still runs, against Redis, but never answers 429) and
 *   BENCH_FLOOR=true;
 * - the framework floor: `/api/bench-floor` of that same server, an empty route handler (no kernel, no
 *   database): what Next itself costs per request; beside the scan, also the same empty handler on a route
 *   with a path parameter (`/api/bench-floor/path/:id`, "dynamic floor"), as the scan's route has one;
 * - the bare baseline: bench/baseline-server.ts, plain `node:http` + postgres.js issuing the same SQL and
 *   answering the same JSON (same JWT check and session lookup), with postgres.js's named prepared
 *   statements ("baseline") and, beside it, without them ("baseline, unprepared").
 *
 * Everything runs against a scratch database created, migrated and seeded here (through our own API: a user,
 * five claimed and completed tags, conversations), dropped at the end. Each scenario runs in alternating
 * rounds (ours, floor, baseline, baseline unprepared; again …) with the same autocannon settings, and the
 * CPU each server process (and its children) spent during a round (/proc/<pid>/stat utime + stime) is
 * divided by the requests it answered. The scan API and the finder page are then driven at a fixed 60% of
 * their own measured maximum for their p99. The table compares each figure with the issue's goal; the
 * figures go to bench/results/<date>.json. Absolute figures vary with the machine's load; the ratios, all
 * taken within the same run, are what to read.
 *
 * Settings: BENCH_COMPARE_SECONDS (10), BENCH_COMPARE_ROUNDS (3), BENCH_COMPARE_CONNECTIONS (16),
 * BENCH_COMPARE_UNPREPARED (1; 0 leaves the unprepared baseline out), BENCH_COMPARE_ASYNC_CONTEXT (1 adds a
 * baseline whose requests run inside an AsyncLocalStorage), BENCH_COMPARE_SCENARIOS (a subset, e.g. "scan,finder"), BENCH_COMPARE_SCAN_ROUTES (1 adds the scan sent through Next's dynamic route beside its static one),
 * BENCH_DATABASE_URL or DATABASE_URL (the PostgreSQL server the scratch database is made on), BENCH_REDIS_URL or REDIS_URL.
 */
import { randomBytes } from "node:crypto";
import { accessSync, closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import autocannon from "autocannon";
import { decodeJwt } from "jose";
import postgres from "postgres";
import { accessTokenKey, signAccessToken } from "./access-token";
import { children, cpuMs, freePort, nextStartEnvironment, startNext, startServer, stopChild, waitUntilAnswering, withCleanUp, type Server } from "./processes";
import { migrateScratch } from "./scratch-postgres";

const SECONDS = Number(process.env.BENCH_COMPARE_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_COMPARE_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_COMPARE_CONNECTIONS ?? 16);
const WITH_UNPREPARED = (process.env.BENCH_COMPARE_UNPREPARED ?? "1") !== "0";
/** 1: a third baseline, each request inside an AsyncLocalStorage as in Next (a diagnosis; see bench/baseline-server.ts). */
const WITH_ASYNC_CONTEXT = process.env.BENCH_COMPARE_ASYNC_CONTEXT === "1";
/** A comma-separated subset of the scenarios (tag, messages, me, scan, finder) for a quicker diagnosis; all by default. */
/** Also the scan sent through Next's dynamic route instead of its static one (docs/decisions/0054-static-scan-route.md). */
const WITH_SCAN_BY_DYNAMIC_ROUTE = process.env.BENCH_COMPARE_SCAN_ROUTES === "1";
const ONLY_SCENARIOS = process.env.BENCH_COMPARE_SCENARIOS?.split(",").map((key) => key.trim()).filter(Boolean);
const WARMUP_SECONDS = 3;
const FETCH_TIMEOUT_MS = 15_000;
const FIXED_RATE_SHARE = 0.6;

export const BROWSER = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1";
const repoRoot = process.cwd();

export type TargetName = "ours" | "floor" | "dynamicFloor" | "scanByDynamicRoute" | "baseline" | "baselineUnprepared" | "baselineAsyncContext";

interface RoundFigures {
  round: number;
  requests: number;
  non2xx: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
}

export interface Scenario {
  key: string;
  title: string;
  /** The goal group of the issue this scenario belongs to. */
  kind: "read" | "scan" | "page";
  /** Paths requested in turn by each connection. */
  paths: () => string[];
  headers: (token: string) => Record<string, string>;
  targets: TargetName[];
}

// ---------------------------------------------------------------------------------------------------------
// Load.

export async function load(url: string, paths: string[], headers: Record<string, string>, seconds: number, rate?: number): Promise<autocannon.Result> {
  const options: autocannon.Options = {
    url,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    headers,
    requests: paths.map((p) => ({ method: "GET", path: p })),
    ...(rate ? { overallRate: rate } : {}),
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => {
      clearTimeout(guard);
      if (error) reject(error);
      else resolve(result);
    });
    const guard = setTimeout(() => instance.stop(), (seconds + 30) * 1000);
  });
}

async function measure(server: Server, paths: string[], headers: Record<string, string>, seconds: number, round: number, rate?: number): Promise<RoundFigures> {
  const pid = server.child.pid!;
  const before = cpuMs(pid);
  const result = await load(server.url, paths, headers, seconds, rate);
  const spent = cpuMs(pid) - before;
  const requests = result.requests.total;
  const round1 = (n: number) => Math.round(n * 10) / 10;
  return {
    round,
    requests,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    rps: round1(requests / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMsPerRequest: requests ? Math.round((spent / requests) * 1000) / 1000 : 0,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Seeding through our own API.

export async function api<T>(base: string, method: string, p: string, body?: unknown, token?: string, extra: Record<string, string> = {}): Promise<{ status: number; data: T; message?: string }> {
  const headers: Record<string, string> = { "content-type": "application/json", ...extra };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(new URL(p, base), { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  const payload = (await response.json()) as { data: T; error?: { message?: string } };
  return { status: response.status, data: payload.data, message: payload.error?.message };
}

export function expectStatus(what: string, result: { status: number; message?: string }, status: number): void {
  if (result.status !== status) throw new Error(`seeding: ${what} answered ${result.status} (${result.message ?? ""})`);
}

export interface Seed {
  userId: string;
  sessionId: string;
  tagIds: string[];
  encryptedIds: string[];
}

/** What the comparison (and bench/profile.ts) loads: the seeded user's reads, the scan and the finder page. */
export function benchScenarios(seeded: Seed, compared: TargetName[]): Scenario[] {
  return [
    { key: "tag", title: "GET /api/v1/tags/:id (bearer)", kind: "read", paths: () => [`/api/v1/tags/${seeded.tagIds[0]}`], headers: (t) => ({ Authorization: t }), targets: compared },
    { key: "messages", title: "GET /api/v1/messages (bearer)", kind: "read", paths: () => ["/api/v1/messages?page=1&limit=20"], headers: (t) => ({ Authorization: t }), targets: compared },
    { key: "me", title: "GET /api/v1/auth/me (bearer)", kind: "read", paths: () => ["/api/v1/auth/me"], headers: (t) => ({ Authorization: t }), targets: compared },
    { key: "scan", title: "GET /api/v1/scan/:encryptedId (public, 5 tags)", kind: "scan", paths: () => seeded.encryptedIds.map((id) => `/api/v1/scan/${id}`), headers: () => ({ "User-Agent": BROWSER }), targets: compared.includes("floor") ? [...compared, "dynamicFloor"] : compared },
    { key: "finder", title: "GET /t/:encryptedId finder page (HTML, 5 tags)", kind: "page", paths: () => seeded.encryptedIds.map((id) => `/t/${id}`), headers: () => ({ "User-Agent": BROWSER, "Accept-Language": "es-ES,es;q=0.9" }), targets: ["ours", "floor"] },
  ];
}

export async function seed(base: string, admin: { email: string; password: string }): Promise<Seed> {
  const email = `bench-${randomBytes(4).toString("hex")}@example.com`;
  const registered = await api<{ accessToken: string }>(base, "POST", "/api/v1/auth/register", { email, password: "Bench-password-1", firstName: "Bench", lastName: "User" });
  expectStatus("register", registered, 201);
  const token = registered.data.accessToken;
  const claims = decodeJwt(token);
  const login = await api<{ accessToken: string }>(base, "POST", "/api/v1/auth/login", admin);
  expectStatus("admin login", login, 200);
  const minted = await api<{ code: string }[]>(base, "POST", "/api/v1/admin/tags/batch", { count: 5 }, login.data.accessToken);
  expectStatus("minting", minted, 201);
  const claimed = await api<{ activated: { id: string; encryptedId: string }[] }>(base, "POST", "/api/v1/tags/bulk-activate", { codes: minted.data.map((tag) => tag.code) }, token);
  expectStatus("claiming", claimed, 200);
  const tags = claimed.data.activated;
  for (const [index, tag] of tags.entries()) {
    const named = await api(base, "PATCH", `/api/v1/profiles/${tag.id}`, { itemName: `Bench item ${index + 1}`, description: "A tag the load test scans." }, token);
    expectStatus("completing a profile", named, 200);
    // Two conversations per tag, so GET /messages lists ten threads with their last message and unread count.
    for (const finder of ["Sam", "Alex"]) {
      const contact = await api(base, "POST", `/api/v1/scan/${tag.encryptedId}/contact`, { finderName: finder, message: `Hello, I found your item (${finder}).` }, undefined, { "User-Agent": BROWSER });
      expectStatus("a finder's contact", contact, 201);
    }
  }
  return { userId: String(claims.sub), sessionId: String(claims.sid), tagIds: tags.map((tag) => tag.id), encryptedIds: tags.map((tag) => tag.encryptedId) };
}

// ---------------------------------------------------------------------------------------------------------
// The finder page's first load.

interface PageWeight {
  htmlBytes: number;
  htmlGzipBytes: number;
  cssBytes: number;
  cssGzipBytes: number;
  cssFiles: number;
  jsBytes: number;
  jsGzipBytes: number;
  jsFiles: number;
  /** Scripts written into the HTML itself (counted in its bytes too). */
  inlineScriptBytes: number;
  textWithoutJs: boolean;
}

/** GET with gzip accepted: the bytes on the wire and the decoded body. */
function getBytes(url: string, headers: Record<string, string>): Promise<{ status: number; wire: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { ...headers, "Accept-Encoding": "gzip" }, timeout: FETCH_TIMEOUT_MS }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const wire = Buffer.concat(chunks);
        const body = response.headers["content-encoding"] === "gzip" ? gunzipSync(wire) : wire;
        resolve({ status: response.statusCode ?? 0, wire: wire.length, body });
      });
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error(`timeout fetching ${url}`)));
    request.on("error", reject);
  });
}

async function pageWeight(base: string, encryptedId: string, itemName: string): Promise<PageWeight> {
  const headers = { "User-Agent": BROWSER, "Accept-Language": "en" };
  const page = await getBytes(`${base}/t/${encryptedId}`, headers);
  if (page.status !== 200) throw new Error(`the finder page answered ${page.status}`);
  const html = page.body.toString("utf8");
  const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1];
  const styles = [...html.matchAll(/<link\b[^>]*>/g)].map((m) => m[0]).filter((tag) => /rel="stylesheet"/.test(tag)).map((tag) => attribute(tag, "href")).filter(Boolean) as string[];
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => attribute(m[0], "src")).filter(Boolean) as string[];
  const sum = async (urls: string[]) => {
    let raw = 0;
    let wire = 0;
    for (const u of [...new Set(urls)]) {
      const file = await getBytes(new URL(u.replaceAll("&amp;", "&"), base).toString(), headers);
      raw += file.body.length;
      wire += file.wire;
    }
    return { raw, wire };
  };
  const css = await sum(styles);
  const js = await sum(scripts);
  // What a browser without JavaScript shows: the HTML with its scripts and templates taken out.
  const withoutScripts = html.replace(/<script\b[\s\S]*?<\/script>/g, "").replace(/<template\b[\s\S]*?<\/template>/g, "");
  return {
    htmlBytes: page.body.length,
    htmlGzipBytes: page.wire,
    cssBytes: css.raw,
    cssGzipBytes: css.wire,
    cssFiles: new Set(styles).size,
    jsBytes: js.raw,
    jsGzipBytes: js.wire,
    jsFiles: new Set(scripts).size,
    inlineScriptBytes: [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].reduce((total, m) => total + Buffer.byteLength(m[1]!), 0),
    textWithoutJs: withoutScripts.includes(itemName),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Comparing answers: the baseline must answer what ours answers.

function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, shapeOf(v)]));
  return value === null ? "null" : typeof value;
}

/** Volatile fields (counters and times a scan moves) aside, the two answers must be equal. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .filter(([k]) => !["scanCount", "lastScannedAt", "updatedAt"].includes(k))
        .map(([k, v]) => [k, comparable(v)]),
    );
  }
  return value;
}

async function sameAnswer(ours: Server, baseline: Server, p: string, headers: Record<string, string>): Promise<string | null> {
  const get = async (server: Server) => {
    const response = await fetch(new URL(p, server.url), { headers, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const a = await get(ours);
  const b = await get(baseline);
  if (a.status !== 200) return `ours answered ${a.status} to ${p}: ${JSON.stringify(a.body).slice(0, 300)}`;
  if (a.status !== b.status) return `status ${a.status} (ours) vs ${b.status} (baseline) for ${p}`;
  if (JSON.stringify(shapeOf(a.body)) !== JSON.stringify(shapeOf(b.body))) return `JSON shape differs for ${p}:\n ours     ${JSON.stringify(shapeOf(a.body))}\n baseline ${JSON.stringify(shapeOf(b.body))}`;
  if (JSON.stringify(comparable(a.body)) !== JSON.stringify(comparable(b.body))) return `JSON values differ for ${p}:\n ours     ${JSON.stringify(a.body).slice(0, 600)}\n baseline ${JSON.stringify(b.body).slice(0, 600)}`;
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Statements per request, from PostgreSQL's own log (pg_stat_statements needs a server restart to load).

const STATEMENT_SAMPLE = 20;

/** The server's log file when this process can read it (the collector's, else Debian's stderr log). */
async function serverLogFile(admin: postgres.Sql): Promise<string | null> {
  const [row] = (await admin`select pg_current_logfile() as file, current_setting('data_directory') as data, current_setting('server_version_num')::int / 10000 as major`) as unknown as [
    { file: string | null; data: string; major: number },
  ];
  const candidates = [row.file ? path.resolve(row.data, row.file) : null, `/var/log/postgresql/postgresql-${row.major}-main.log`].filter(Boolean) as string[];
  for (const file of candidates) {
    try {
      accessSync(file, constants.R_OK);
      return file;
    } catch {
      // not this one
    }
  }
  return null;
}

/** Log entries (a line and its continuation lines) from `offset` on. */
function logEntriesFrom(file: string, offset: number): string[] {
  const size = statSync(file).size;
  if (size <= offset) return [];
  const buffer = Buffer.alloc(size - offset);
  const fd = openSync(file, "r");
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  const entries: string[] = [];
  for (const line of buffer.toString("utf8").split("\n")) {
    if (/^\d{4}-\d{2}-\d{2} /.test(line) || entries.length === 0) entries.push(line);
    else entries[entries.length - 1] += ` ${line.trim()}`;
  }
  return entries;
}

/**
 * Turns on log_statement for the scratch database, ends its connections (the pools reconnect and read the
 * setting), then sends STATEMENT_SAMPLE requests one by one per scenario and server and counts the
 * statements the database logged meanwhile: pg-boss's own polling is left out; BEGIN and COMMIT count.
 */
async function countStatements(admin: postgres.Sql, database: string, jobs: { scenario: string; target: TargetName; server: Server; path: string; headers: () => Promise<Record<string, string>> }[]) {
  const file = await serverLogFile(admin);
  if (!file) return "PostgreSQL's log file is not readable here";
  await admin.unsafe(`ALTER DATABASE "${database}" SET log_statement = 'all'`);
  await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${database} and pid <> pg_backend_pid()`;
  const get = async (job: (typeof jobs)[number]) => {
    const response = await fetch(new URL(job.path, job.server.url), { headers: await job.headers(), signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    await response.arrayBuffer();
    return response.status;
  };
  // Until each server answers again on its new connections (ours may hold off briefly after losing them).
  for (const job of jobs) {
    const deadline = Date.now() + 30_000;
    let ok = 0;
    while (Date.now() < deadline && ok < 3) {
      ok = (await get(job).catch(() => 0)) === 200 ? ok + 1 : 0;
      if (ok < 3) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const counts: Record<string, Partial<Record<TargetName, number>>> = {};
  const pattern = new RegExp(`@${database} LOG:  (statement|execute [^:]*):`);
  for (const job of jobs) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const offset = statSync(file).size;
    for (let i = 0; i < STATEMENT_SAMPLE; i++) await get(job);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const statements = logEntriesFrom(file, offset).filter((entry) => pattern.test(entry) && !/pgboss\./.test(entry));
    (counts[job.scenario] ??= {})[job.target] = Math.round((statements.length / STATEMENT_SAMPLE) * 100) / 100;
  }
  await admin.unsafe(`ALTER DATABASE "${database}" RESET log_statement`);
  return counts;
}

// ---------------------------------------------------------------------------------------------------------
// The run.

export interface ScenarioSummary {
  key: string;
  title: string;
  kind: Scenario["kind"];
  rounds: Partial<Record<TargetName, RoundFigures[]>>;
  mean: Partial<Record<TargetName, { rps: number; p50: number; p99: number; cpuMsPerRequest: number; non2xx: number; errors: number }>>;
  /** Statements PostgreSQL logged per request (sequential sample), per server; pg-boss's polling left out. */
  statementsPerRequest?: Partial<Record<TargetName, number>>;
  fixedRate?: { rate: number; achievedRps: number; p50: number; p99: number; non2xx: number; errors: number; baseline?: { rate: number; achievedRps: number; p99: number } };
}

export interface CompareResult {
  date: string;
  machine: { cpus: number; model: string; loadAverage: number[]; node: string; postgres: string };
  settings: { seconds: number; rounds: number; connections: number; warmupSeconds: number; fixedRateShare: number };
  answersMatch: string[];
  scenarios: ScenarioSummary[];
  finderPage?: PageWeight;
  /** Why statements per request were not counted, when they were not. */
  statementsNote?: string;
  goals: { goal: string; figure: string; met: boolean | null }[];
}

function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function summarise(rounds: RoundFigures[]) {
  const requests = rounds.reduce((n, r) => n + r.requests, 0);
  const cpu = rounds.reduce((n, r) => n + r.cpuMsPerRequest * r.requests, 0);
  const r1 = (n: number) => Math.round(n * 10) / 10;
  return {
    rps: r1(mean(rounds.map((r) => r.rps))),
    p50: r1(median(rounds.map((r) => r.p50))),
    p99: r1(median(rounds.map((r) => r.p99))),
    cpuMsPerRequest: requests ? Math.round((cpu / requests) * 1000) / 1000 : 0,
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
  };
}

/**
 * The scan's address with its first character percent-escaped: the same scan of the same tag, which the
 * server's request hook leaves to Next's router (it takes only ids with nothing to decode), so it reaches
 * the handler through the dynamic route `/api/v1/scan/[encryptedId]`.
 */
function scanPathForNextsRouter(encryptedId: string): string {
  return `/api/v1/scan/%${encryptedId.charCodeAt(0).toString(16).toUpperCase()}${encryptedId.slice(1)}`;
}

export async function compare(): Promise<CompareResult | string> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) return "needs PostgreSQL and Redis: set BENCH_DATABASE_URL (or DATABASE_URL) and BENCH_REDIS_URL (or REDIS_URL)";
  if (!existsSync(path.join(repoRoot, ".next", "BUILD_ID"))) return "no production build in .next: run `npm run build` first (the bench builds nothing itself)";

  const name = `tagsvc_bench_${randomBytes(4).toString("hex")}`;
  const admin = postgres(databaseUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  const scratch = new URL(databaseUrl);
  scratch.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tagsvc-bench-"));
  let dropped = false;
  const cleanUp = async () => {
    await Promise.all([...children].map(stopChild));
    if (!dropped) {
      dropped = true;
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
      await admin.end({ timeout: 5 }).catch(() => {});
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return withCleanUp(`stopping the servers and dropping ${name}`, cleanUp, async () => {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
    // Diagnostics: every statement on the scratch database goes to PostgreSQL's server log.
    if (process.env.BENCH_LOG_STATEMENTS === "1") await admin.unsafe(`ALTER DATABASE "${name}" SET log_statement = 'all'`);
    const [{ version }] = (await admin`select current_setting('server_version') as version`) as unknown as [{ version: string }];
    await migrateScratch(scratch.toString());

    const secret = randomBytes(32).toString("base64url");
    const adminAccount = { email: "bench-admin@example.com", password: `Bench-${randomBytes(9).toString("base64url")}` };
    const [oursPort, baselinePort, unpreparedPort, asyncContextPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const appUrl = `http://127.0.0.1:${oursPort}`;
    const common = { PATH: process.env.PATH, HOME: process.env.HOME, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: scratch.toString(), AUTH_SECRET: secret, APP_URL: appUrl };
    const ours = startNext(
      "ours (next start)",
      oursPort,
      nextStartEnvironment({
        databaseUrl: scratch.toString(),
        redisUrl,
        appUrl,
        dataDir,
        authSecret: secret,
        admin: adminAccount,
        extra: { RATE_LIMIT_MULTIPLIER: "1000000", BENCH_FLOOR: "true" },
      }),
    );
    const baselineArgs = ["--import", "tsx", path.join(repoRoot, "bench/baseline-server.ts")];
    const baseline = startServer("baseline", process.execPath, baselineArgs, { ...common, PORT: String(baselinePort), BASELINE_PREPARE: "true", NODE_ENV: "production" }, baselinePort);
    const unprepared = WITH_UNPREPARED
      ? startServer("baseline, unprepared", process.execPath, baselineArgs, { ...common, PORT: String(unpreparedPort), BASELINE_PREPARE: "false", NODE_ENV: "production" }, unpreparedPort)
      : undefined;
    const asyncContext = WITH_ASYNC_CONTEXT
      ? startServer("baseline, async context", process.execPath, baselineArgs, { ...common, PORT: String(asyncContextPort), BASELINE_PREPARE: "true", BASELINE_ASYNC_CONTEXT: "true", NODE_ENV: "production" }, asyncContextPort)
      : undefined;
    await Promise.all([
      waitUntilAnswering(ours, "/api/bench-floor"),
      waitUntilAnswering(baseline, "/healthz"),
      unprepared && waitUntilAnswering(unprepared, "/healthz"),
      asyncContext && waitUntilAnswering(asyncContext, "/healthz"),
    ]);

    const seeded = await seed(ours.url, adminAccount);
    const key = accessTokenKey(secret);
    const bearer = async () => ({ Authorization: `Bearer ${await signAccessToken(key, { userId: seeded.userId, sessionId: seeded.sessionId })}` });
    const servers: Record<TargetName, Server | undefined> = { ours, floor: ours, dynamicFloor: ours, scanByDynamicRoute: ours, baseline, baselineUnprepared: unprepared, baselineAsyncContext: asyncContext };
    const compared: TargetName[] = ["ours", "floor", "baseline", ...(WITH_UNPREPARED ? (["baselineUnprepared"] as const) : []), ...(WITH_ASYNC_CONTEXT ? (["baselineAsyncContext"] as const) : [])];

    const allScenarios = benchScenarios(seeded, compared);
    const scenarios = ONLY_SCENARIOS ? allScenarios.filter((s) => ONLY_SCENARIOS.includes(s.key)) : allScenarios;
    if (WITH_SCAN_BY_DYNAMIC_ROUTE) for (const scenario of scenarios) if (scenario.key === "scan") scenario.targets.push("scanByDynamicRoute");
    if (scenarios.length === 0) throw new Error(`BENCH_COMPARE_SCENARIOS names none of: ${allScenarios.map((s) => s.key).join(", ")}`);
    const floorPaths = ["/api/bench-floor"];

    // The baseline must answer what ours answers, or the comparison means nothing.
    const answersMatch: string[] = [];
    const mismatches: string[] = [];
    for (const scenario of scenarios.filter((s) => s.targets.includes("baseline"))) {
      const headers = scenario.headers((await bearer()).Authorization);
      for (const server of [baseline, unprepared, asyncContext].filter(Boolean) as Server[]) {
        const problem = await sameAnswer(ours, server, scenario.paths()[0]!, headers);
        if (problem) mismatches.push(`${server.name}: ${problem}`);
      }
      answersMatch.push(scenario.key);
    }
    if (mismatches.length) throw new Error(`the baseline does not answer as ours does:\n${mismatches.join("\n")}`);

    const run = async (scenario: Scenario, target: TargetName, seconds: number, round: number) => {
      const server = servers[target]!;
      const token = (await bearer()).Authorization;
      const paths = target === "floor" ? floorPaths : target === "dynamicFloor" ? seeded.encryptedIds.map((id) => `/api/bench-floor/path/${id}`) : target === "scanByDynamicRoute" ? seeded.encryptedIds.map(scanPathForNextsRouter) : scenario.paths();
      return measure(server, paths, scenario.headers(token), seconds, round);
    };

    console.log(`compare: ours ${ours.url}, baseline ${baseline.url}${unprepared ? `, unprepared ${unprepared.url}` : ""}; database ${name}; ` + `${ROUNDS} rounds × ${SECONDS} s, ${CONNECTIONS} connections, warm-up ${WARMUP_SECONDS} s`);
    for (const scenario of scenarios) for (const target of scenario.targets) if (target !== "floor") await run(scenario, target, WARMUP_SECONDS, 0);
    await run(scenarios[0]!, "floor", WARMUP_SECONDS, 0);

    const rounds = new Map<string, Partial<Record<TargetName, RoundFigures[]>>>(scenarios.map((s) => [s.key, {}]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const scenario of scenarios) {
        for (const target of scenario.targets) {
          const figures = await run(scenario, target, SECONDS, round);
          const list = (rounds.get(scenario.key)![target] ??= []);
          list.push(figures);
          console.log(`  round ${round} ${scenario.key} ${target}: ${figures.rps} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ${figures.cpuMsPerRequest} CPU ms/req${figures.non2xx || figures.errors ? `, NON-2XX ${figures.non2xx}, ERRORS ${figures.errors}` : ""}`);
        }
      }
    }

    const summaries: ScenarioSummary[] = scenarios.map((scenario) => {
      const byTarget = rounds.get(scenario.key)!;
      return {
        key: scenario.key,
        title: scenario.title,
        kind: scenario.kind,
        rounds: byTarget,
        mean: Object.fromEntries(Object.entries(byTarget).map(([target, list]) => [target, summarise(list!)])),
      };
    });

    // p99 at a fixed 60% of each one's own maximum (the mean of its rounds above).
    for (const summary of summaries.filter((s) => s.kind === "scan" || s.kind === "page")) {
      const scenario = scenarios.find((s) => s.key === summary.key)!;
      const rate = Math.max(1, Math.round((summary.mean.ours?.rps ?? 0) * FIXED_RATE_SHARE));
      const fixed = await measure(ours, scenario.paths(), scenario.headers(""), SECONDS, 1, rate);
      summary.fixedRate = { rate, achievedRps: fixed.rps, p50: fixed.p50, p99: fixed.p99, non2xx: fixed.non2xx, errors: fixed.errors };
      if (scenario.targets.includes("baseline") && summary.mean.baseline) {
        const baselineRate = Math.max(1, Math.round(summary.mean.baseline.rps * FIXED_RATE_SHARE));
        const reference = await measure(baseline, scenario.paths(), scenario.headers(""), SECONDS, 1, baselineRate);
        summary.fixedRate.baseline = { rate: baselineRate, achievedRps: reference.rps, p99: reference.p99 };
      }
      console.log(`  fixed rate ${summary.key}: ${rate} req/s asked, ${fixed.rps} answered, p50 ${fixed.p50} ms, p99 ${fixed.p99} ms${fixed.non2xx || fixed.errors ? `, NON-2XX ${fixed.non2xx}, ERRORS ${fixed.errors}` : ""}`);
    }

    const finderPage = await pageWeight(ours.url, seeded.encryptedIds[0]!, "Bench item 1");

    const statementJobs = scenarios
      .filter((s) => s.kind !== "page")
      .flatMap((scenario) =>
        scenario.targets
          .filter((target) => target !== "floor" && target !== "dynamicFloor" && target !== "baselineAsyncContext")
          .map((target) => ({ scenario: scenario.key, target, server: servers[target]!, path: scenario.paths()[0]!, headers: async () => scenario.headers((await bearer()).Authorization) })),
      );
    let statementsNote: string | undefined;
    try {
      const counted = await countStatements(admin, name, statementJobs);
      if (typeof counted === "string") statementsNote = counted;
      else for (const summary of summaries) if (counted[summary.key]) summary.statementsPerRequest = counted[summary.key];
    } catch (error) {
      statementsNote = `statements not counted: ${error instanceof Error ? error.message : String(error)}`;
    }
    const loadAverage = os.loadavg().map((n) => Math.round(n * 100) / 100);
    const result: CompareResult = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? "?", loadAverage, node: process.version, postgres: version },
      settings: { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, fixedRateShare: FIXED_RATE_SHARE },
      answersMatch,
      scenarios: summaries,
      finderPage,
      statementsNote,
      goals: [],
    };
    result.goals = goalsOf(result);
    return result;
  });
}

// ---------------------------------------------------------------------------------------------------------
// Goals (issue 16) and the table.

const ratio = (a: number | undefined, b: number | undefined) => (a && b ? Math.round((a / b) * 100) / 100 : undefined);

function goalsOf(result: CompareResult): CompareResult["goals"] {
  const goals: CompareResult["goals"] = [];
  for (const s of result.scenarios) {
    const ours = s.mean.ours;
    const floor = s.mean.floor;
    const baseline = s.mean.baseline;
    if (s.kind === "read") {
      const cpu = ratio(ours?.cpuMsPerRequest, floor?.cpuMsPerRequest);
      const rps = ratio(ours?.rps, baseline?.rps);
      goals.push({ goal: `${s.key}: CPU/request ≤ 1.3× the floor's`, figure: `${cpu ?? "?"}×`, met: cpu === undefined ? null : cpu <= 1.3 });
      goals.push({ goal: `${s.key}: throughput ≥ 0.35× the baseline`, figure: `${rps ?? "?"}×`, met: rps === undefined ? null : rps >= 0.35 });
    } else if (s.kind === "scan") {
      const rps = ratio(ours?.rps, baseline?.rps);
      const cpu = ratio(ours?.cpuMsPerRequest, floor?.cpuMsPerRequest);
      const statements = s.statementsPerRequest?.ours;
      goals.push({ goal: "scan: CPU/request ≤ 2× the floor's", figure: `${cpu ?? "?"}×`, met: cpu === undefined ? null : cpu <= 2 });
      goals.push({ goal: "scan: ≤ 4 statements per scan", figure: `${statements ?? "?"}`, met: statements === undefined ? null : statements <= 4 });
      goals.push({ goal: "scan: throughput ≥ 0.3× the baseline", figure: `${rps ?? "?"}×`, met: rps === undefined ? null : rps >= 0.3 });
      if (s.fixedRate) goals.push({ goal: "scan: p99 ≤ 50 ms at 60% of its maximum", figure: `${s.fixedRate.p99} ms at ${s.fixedRate.rate} req/s`, met: s.fixedRate.achievedRps > 0 && s.fixedRate.p99 <= 50 && s.fixedRate.non2xx === 0 });
    } else {
      const cpu = ratio(ours?.cpuMsPerRequest, floor?.cpuMsPerRequest);
      goals.push({ goal: "finder page: CPU/request ≤ 3× the floor's", figure: `${cpu ?? "?"}×`, met: cpu === undefined ? null : cpu <= 3 });
    }
    if (s.kind === "page" && s.fixedRate) {
      goals.push({ goal: "finder page: p99 ≤ 100 ms at 60% of its maximum", figure: `${s.fixedRate.p99} ms at ${s.fixedRate.rate} req/s`, met: s.fixedRate.achievedRps > 0 && s.fixedRate.p99 <= 100 && s.fixedRate.non2xx === 0 });
    }
  }
  const page = result.finderPage;
  if (page) {
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    goals.push({
      goal: "finder page: HTML+CSS < 30 KB on first load",
      figure: `${kb(page.htmlGzipBytes + page.cssGzipBytes)} transferred (${kb(page.htmlBytes + page.cssBytes)} uncompressed)`,
      met: page.htmlGzipBytes + page.cssGzipBytes < 30 * 1024,
    });
    goals.push({
      goal: "finder page: JavaScript ≤ 60 KB transferred on first load",
      figure: `${kb(page.jsGzipBytes)} in ${page.jsFiles} files, plus ${kb(page.inlineScriptBytes)} inline (inside the HTML's bytes)`,
      met: page.jsGzipBytes + page.inlineScriptBytes <= 60 * 1024,
    });
    goals.push({ goal: "finder page: readable without JavaScript", figure: page.textWithoutJs ? "item name in the HTML" : "item name missing without scripts", met: page.textWithoutJs });
  }
  return goals;
}

export function formatCompare(result: CompareResult): string {
  const lines: string[] = [];
  const n = (v: number | undefined, digits = 1) => (v === undefined ? "–" : v.toFixed(digits));
  lines.push(
    `| scenario | ours req/s | baseline req/s | ours ÷ baseline | unprepared baseline req/s | ours CPU ms/req | floor CPU ms/req | ours ÷ floor | baseline CPU ms/req | p99 ms ours / floor / baseline | statements/req ours / baseline |`,
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|`,
  );
  for (const s of result.scenarios) {
    const { ours, floor, baseline, baselineUnprepared } = s.mean;
    lines.push(
      `| ${s.title} | ${n(ours?.rps, 0)} | ${n(baseline?.rps, 0)} | ${ratio(ours?.rps, baseline?.rps) ?? "–"} | ${n(baselineUnprepared?.rps, 0)} | ${n(ours?.cpuMsPerRequest, 2)} | ${n(floor?.cpuMsPerRequest, 2)} | ${ratio(ours?.cpuMsPerRequest, floor?.cpuMsPerRequest) ?? "–"} | ${n(baseline?.cpuMsPerRequest, 2)} | ${n(ours?.p99, 0)} / ${n(floor?.p99, 0)} / ${n(baseline?.p99, 0)} | ${s.statementsPerRequest ? `${n(s.statementsPerRequest.ours, 1)} / ${n(s.statementsPerRequest.baseline, 1)}` : "–"} |`,
    );
  }
  const withContext = result.scenarios.filter((s) => s.mean.baselineAsyncContext && s.mean.baseline);
  if (withContext.length) {
    lines.push("", "The baseline with each request inside an AsyncLocalStorage (as in Next; BENCH_COMPARE_ASYNC_CONTEXT=1):");
    for (const s of withContext) {
      const { baseline, baselineAsyncContext: inContext } = s.mean;
      lines.push(`- ${s.title}: ${n(inContext!.rps, 0)} req/s (${ratio(inContext!.rps, baseline!.rps)}× the baseline's), ${n(inContext!.cpuMsPerRequest, 2)} CPU ms/req (${ratio(inContext!.cpuMsPerRequest, baseline!.cpuMsPerRequest)}×)`);
    }
  }
  if (result.statementsNote) lines.push("", `Statements per request not counted: ${result.statementsNote}.`);
  const differing = result.scenarios.filter((s) => s.statementsPerRequest && Math.abs((s.statementsPerRequest.ours ?? 0) - (s.statementsPerRequest.baseline ?? 0)) >= 0.5);
  if (differing.length) lines.push("", `Note: ours and the baseline send different numbers of statements (by half a statement or more per request) for ${differing.map((s) => s.key).join(", ")}; bring bench/baseline-server.ts in line with ours before reading those ratios.`);
  const floorRps = mean(result.scenarios.map((s) => s.mean.floor?.rps ?? 0).filter(Boolean));
  lines.push("", `Framework floor (/api/bench-floor): ${floorRps.toFixed(0)} req/s mean over its runs.`);
  for (const s of result.scenarios.filter((x) => x.mean.scanByDynamicRoute)) {
    const { ours, floor, scanByDynamicRoute } = s.mean;
    lines.push(
      "",
      `The scan through Next's dynamic route (its first character escaped, which the request hook leaves to Next): ${n(scanByDynamicRoute!.rps, 0)} req/s, ` +
        `${n(scanByDynamicRoute!.cpuMsPerRequest, 2)} CPU ms/req, ${ratio(scanByDynamicRoute!.cpuMsPerRequest, floor?.cpuMsPerRequest) ?? "?"}× the floor's; by its static route ${ratio(ours?.cpuMsPerRequest, scanByDynamicRoute!.cpuMsPerRequest) ?? "?"}× that.`,
    );
  }
  for (const s of result.scenarios.filter((x) => x.mean.dynamicFloor)) {
    const { ours, floor, dynamicFloor } = s.mean;
    lines.push(
      `Dynamic floor (/api/bench-floor/path/:id, the empty handler on a route with a path parameter, as ${s.key}'s route has): ${n(dynamicFloor!.rps, 0)} req/s, ` +
        `${n(dynamicFloor!.cpuMsPerRequest, 2)} CPU ms/req, ${ratio(dynamicFloor!.cpuMsPerRequest, floor?.cpuMsPerRequest) ?? "?"}× the floor's; ${s.key} is ${ratio(ours?.cpuMsPerRequest, dynamicFloor!.cpuMsPerRequest) ?? "?"}× it.`,
    );
  }
  for (const s of result.scenarios.filter((x) => x.fixedRate)) {
    const f = s.fixedRate!;
    lines.push(`Fixed rate, ${s.title}: ${f.rate} req/s asked (60% of ${n(s.mean.ours?.rps, 0)}), ${f.achievedRps} answered, p50 ${f.p50} ms, p99 ${f.p99} ms${f.baseline ? `; baseline at ${f.baseline.rate} req/s: p99 ${f.baseline.p99} ms` : ""}.`);
  }
  lines.push("", "| goal (issue 16) | figure | |", "|---|---|---|");
  for (const goal of result.goals) lines.push(`| ${goal.goal} | ${goal.figure} | ${goal.met === null ? "?" : goal.met ? "met" : "**not met**"} |`);
  const errors = result.scenarios.flatMap((s) => Object.entries(s.mean).filter(([, m]) => m && (m.non2xx || m.errors)).map(([t, m]) => `${s.key}/${t}: ${m!.non2xx} non-2xx, ${m!.errors} errors`));
  if (errors.length) lines.push("", `Failed requests: ${errors.join("; ")}`);
  lines.push("", `${result.machine.cpus} × ${result.machine.model}, load average ${result.machine.loadAverage.join(" ")} at the end; Node ${result.machine.node}, PostgreSQL ${result.machine.postgres}; ${result.settings.rounds} rounds × ${result.settings.seconds} s, ${result.settings.connections} connections.`);
  return lines.join("\n");
}

export function saveCompare(result: CompareResult): string {
  const folder = path.join(repoRoot, "bench/results");
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${result.date.slice(0, 19).replaceAll(":", "-")}.json`);
  writeFileSync(file, JSON.stringify(result, null, 2) + "\n");
  return path.relative(repoRoot, file);
}
