/**
 * The growth bench (`npm run bench -- --only=growth [--sizes=1,10,100]`, issue 30): how each read that
 * touches a growing table slows as the data grows. For each size (a percentage of issue 30's volumes:
 * 200,000 users, 1,000,000 tags, 10,000,000 scans over a year with one tag holding 1.1 million,
 * 500,000 conversations with 2,000,000 messages, 2,000,000 notifications with one user holding 200,000,
 * 100,000 orders), in a scratch PostgreSQL database of its own (`growth_bench_<size>`, on the server of
 * BENCH_DATABASE_URL or DATABASE_URL, dropped after its size is measured):
 *
 * 1. the migrations up to the seed's schema (bench/growth-seed.ts SEED_MIGRATION), the seed by
 *    generate_series, then the later migrations on the seeded rows (their time is reported: a backfill or
 *    an index build of a later migration runs as it would on a production database), VACUUM ANALYZE;
 * 2. every owner, finder and admin read through its real route handler with a real Request and a bearer
 *    token of a real session (the finder page's data through the page's service call, scanTag): 3 calls to
 *    warm the cache, then BENCH_GROWTH_CALLS (20) timed one after another, p50 and p95;
 * 3. at the largest size, EXPLAIN (ANALYZE, BUFFERS) of the slowest statements of each read whose p50
 *    grew more than 2× from the smallest size (the statements are captured from postgres.js as the read
 *    sends them, and explained in a transaction that is rolled back).
 *
 * Written to bench/results/growth-<date>.md (and .json beside it).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { connectPostgres, setDatabase, type DatabaseHandle } from "@/db/client";
import { migrateDatabase, migrationsFolder } from "@/db/migrator";
import { FULL_VOLUMES, SEED_MIGRATION, checkSeededForeignKeys, ownedTags, postgresSession, seedGrowth, seededUuid, volumesAt, type SeedStep, type Volumes } from "./growth-seed";

const CALLS = Number(process.env.BENCH_GROWTH_CALLS ?? 20);
const WARM_UP = 3;
const LIMIT = 20;
const DEEP_PAGE = 5_000;
/** A read whose p50 grows more than this from the smallest size to the largest has its plans shown. */
const EXPLAIN_ABOVE = 2;
const BROWSER = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1";

export interface Timing {
  key: string;
  title: string;
  p50: number;
  p95: number;
  calls: number;
  /** Answers other than 200 (their statuses), which would make the figure meaningless. */
  failures: string[];
  /** A detail of this size's request (the cursor's depth). */
  note?: string;
}

export interface SizeResult {
  percent: number;
  database: string;
  volumes: Volumes;
  seedSteps: SeedStep[];
  seedMs: number;
  /** The migrations after SEED_MIGRATION, applied to the seeded rows, and their names. */
  laterMigrations: string[];
  laterMigrationsMs: number;
  vacuumMs: number;
  databaseBytes: number;
  tableBytes: Record<string, number>;
  timings: Timing[];
  loadAverage: number[];
}

export interface Explained {
  key: string;
  title: string;
  growth: number;
  statements: { sql: string; executionMs: number; plan: string }[];
}

export interface GrowthResult {
  date: string;
  calls: number;
  cursorSupported: boolean;
  sizes: SizeResult[];
  explained: Explained[];
  /** The size that failed, when one did (the run stops there). */
  failed?: { percent: number; error: string };
}

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

interface Read {
  key: string;
  title: string;
  /** One call; resolves to the HTTP status (200 expected) and, on another status, the answer. */
  call(): Promise<{ status: number; body?: string }>;
  note?: string;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (ms: number) => (ms >= 100 ? Math.round(ms) : Math.round(ms * 10) / 10);

/** The migrations folder cut after SEED_MIGRATION (the migrator applies what its journal lists); the caller removes it. */
export function migrationsUpToSeed(): { folder: string; later: string[] } {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag === SEED_MIGRATION);
  if (cut < 0) throw new Error(`the seed's migration ${SEED_MIGRATION} is not in the journal`);
  const folder = mkdtempSync(path.join(tmpdir(), "growth-migrations-"));
  mkdirSync(path.join(folder, "meta"));
  for (const file of readdirSync(migrationsFolder).filter((name) => name.endsWith(".sql"))) copyFileSync(path.join(migrationsFolder, file), path.join(folder, file));
  writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut + 1) }));
  return { folder, later: journal.entries.slice(cut + 1).map((entry) => entry.tag) };
}

const databaseName = (percent: number) => `growth_bench_${String(percent).replace(".", "_")}`;

/** Creates (or re-creates) the size's scratch database on the server of `baseUrl`. */
async function scratchDatabase(baseUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
      await admin.end({ timeout: 5 }).catch(() => {});
    },
  };
}

async function prepareSize(url: string, handle: DatabaseHandle, percent: number, log: (line: string) => void) {
  const volumes = volumesAt(percent);
  const { folder, later } = migrationsUpToSeed();
  try {
    await migrateDatabase(handle, folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const seeder = postgres(url, { max: 1, onnotice: () => {} });
  let seedSteps: SeedStep[];
  try {
    seedSteps = await seedGrowth(postgresSession(seeder), volumes, log);
    // Up to 10% (a minute at most): every foreign key of the seeded rows holds. The full size is the same SQL.
    if (percent <= 10) log(`  ${await checkSeededForeignKeys(postgresSession(seeder))} foreign keys checked: no orphans`);
  } finally {
    await seeder.end({ timeout: 5 });
  }
  const seedMs = seedSteps!.reduce((sum, step) => sum + step.ms, 0);
  log(`  seeded in ${(seedMs / 1000).toFixed(1)} s; the later migrations (${later.length ? later.join(", ") : "none"}) on the seeded data …`);
  const migrated = performance.now();
  await migrateDatabase(handle);
  const laterMigrationsMs = Math.round(performance.now() - migrated);
  const vacuumed = performance.now();
  if (handle.kind !== "postgres") throw new Error("the growth bench runs on PostgreSQL");
  // On a connection of its own: the app's pool carries the request budget's statement_timeout, which VACUUM of
  // the full size outlasts on a slow machine (and VACUUM cannot run in a transaction that would lift it).
  const maintenance = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await maintenance.unsafe("vacuum analyze");
  } finally {
    await maintenance.end({ timeout: 5 });
  }
  const vacuumMs = Math.round(performance.now() - vacuumed);
  log(`  later migrations ${(laterMigrationsMs / 1000).toFixed(1)} s, vacuum analyze ${(vacuumMs / 1000).toFixed(1)} s`);
  const [size] = await handle.sql<{ bytes: string }[]>`select pg_database_size(current_database())::text as bytes`;
  const tables = await handle.sql<{ name: string; bytes: string }[]>`
    select c.relname as name, pg_total_relation_size(c.oid)::text as bytes from pg_class c
    where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace order by pg_total_relation_size(c.oid) desc limit 8`;
  return {
    volumes,
    seedSteps: seedSteps!,
    seedMs,
    laterMigrations: later,
    laterMigrationsMs,
    vacuumMs,
    databaseBytes: Number(size!.bytes),
    tableBytes: Object.fromEntries(tables.map((table) => [table.name, Number(table.bytes)])),
  };
}

let ipCounter = 0;
/** A fresh client address per request: the per-IP limits (scans: 30 a minute) never refuse the bench. */
function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/** The reads of one size, bound to its database's users, tags and sessions. */
async function readsOf(handle: DatabaseHandle, volumes: Volumes): Promise<{ reads: Read[]; cursorSupported: boolean }> {
  const { schema } = await import("@/db/client");
  const { PEER_ADDRESS_HEADER } = await import("@/lib/http/client-ip");
  const { createSession } = await import("@/lib/services/auth/sessions");
  const { systemContext } = await import("@/lib/services/context");
  const { scanTag } = await import("@/lib/services/finder");
  const routes = {
    stats: (await import("@/app/api/v1/admin/stats/route")).GET as Handler,
    analytics: (await import("@/app/api/v1/admin/analytics/route")).GET as Handler,
    users: (await import("@/app/api/v1/admin/users/route")).GET as Handler,
    orders: (await import("@/app/api/v1/admin/orders/route")).GET as Handler,
    notifications: (await import("@/app/api/v1/notifications/route")).GET as Handler,
    unread: (await import("@/app/api/v1/notifications/unread-count/route")).GET as Handler,
    tags: (await import("@/app/api/v1/tags/route")).GET as Handler,
    tagScans: (await import("@/app/api/v1/tags/[id]/scans/route")).GET as Handler,
    messages: (await import("@/app/api/v1/messages/route")).GET as Handler,
    thread: (await import("@/app/api/v1/messages/[threadId]/route")).GET as Handler,
    tag: (await import("@/app/api/v1/tags/[id]/route")).GET as Handler,
    myOrders: (await import("@/app/api/v1/orders/route")).GET as Handler,
    scan: (await import("@/app/api/v1/scan/[encryptedId]/route")).GET as Handler,
  };
  const sql = handle.kind === "postgres" ? handle.sql : undefined;
  if (!sql) throw new Error("the growth bench runs on PostgreSQL");

  const [admin] = await handle.db
    .insert(schema.users)
    .values({ email: "growth-admin@example.com", passwordHash: "x", firstName: "Growth", lastName: "Admin", role: "SUPER_ADMIN", emailVerified: true })
    .returning();
  const client = { ip: "203.0.113.5", userAgent: "growth-bench" };
  const adminToken = (await createSession(systemContext(handle.db), { userId: admin!.id, kind: "API", client })).tokens!.accessToken;
  const ownerToken = (await createSession(systemContext(handle.db), { userId: seededUuid("user", 1), kind: "API", client })).tokens!.accessToken;
  const [hot] = await sql<{ id: string; encrypted_id: string }[]>`select id, encrypted_id from tags where id = ${seededUuid("tag", 1)}`;
  // A typical tag: owned, ACTIVE, GENERAL, from the middle of the owned range (a few scans, not the hot one's million).
  const [typical] = await sql<{ encrypted_id: string }[]>`
    select encrypted_id from tags where code >= ${"G" + String(Math.floor(ownedTags(volumes) / 2)).padStart(9, "0")}
      and status = 'ACTIVE' and tag_type = 'GENERAL' and owner_id is not null order by code limit 1`;
  // An admin looks a user up by part of the address: "hansen100000" of anna.hansen100000@example.com.
  const [searched] = await sql<{ email: string }[]>`select email from users where id = ${seededUuid("user", Math.ceil(volumes.users / 2))}`;
  const fragment = searched!.email.slice(searched!.email.indexOf(".") + 1, searched!.email.indexOf("@"));

  const get = async (handler: Handler, url: string, token: string | null, params: Record<string, string> = {}, headers: Record<string, string> = {}) => {
    const request = new Request(new URL(url, "http://localhost:3000"), {
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}), [PEER_ADDRESS_HEADER]: nextIp() },
    });
    const response = await handler(request, { params: Promise.resolve(params) });
    return { status: response.status, body: await response.text() };
  };
  const read = (key: string, title: string, handler: Handler, url: string, token: string | null, params: Record<string, string> = {}, headers: Record<string, string> = {}): Read => ({
    key,
    title,
    call: () => get(handler, url, token, params, headers),
  });

  /** A keyset page as deep as the list goes (page DEEP_PAGE, or the last page when there are fewer): its cursor, or null when lists have none. */
  const deepCursor = async (handler: Handler, base: string, params: Record<string, string> = {}): Promise<{ cursor: string; page: number } | null> => {
    const first = JSON.parse((await get(handler, `${base}?page=1&limit=${LIMIT}`, ownerToken, params)).body) as { meta?: { total?: number; nextCursor?: string | null } };
    if (!first.meta || !("nextCursor" in first.meta)) return null;
    // A total above the exact count's bound is an estimate and may overshoot the last page: halve until a page has a next one.
    const pages = Math.max(1, Math.ceil((first.meta.total ?? 0) / LIMIT));
    for (let before = Math.max(1, Math.min(DEEP_PAGE, pages) - 1); before > 1; before = Math.floor(before / 2)) {
      const page = JSON.parse((await get(handler, `${base}?page=${before}&limit=${LIMIT}`, ownerToken, params)).body) as { meta?: { nextCursor?: string | null } };
      if (page.meta?.nextCursor) return { cursor: page.meta.nextCursor, page: before + 1 };
    }
    return first.meta.nextCursor ? { cursor: first.meta.nextCursor, page: 2 } : null;
  };

  const reads: Read[] = [
    read("admin-stats", "`GET /api/v1/admin/stats`", routes.stats, "/api/v1/admin/stats", adminToken),
    read("admin-analytics", "`GET /api/v1/admin/analytics` (30 days)", routes.analytics, "/api/v1/admin/analytics", adminToken),
    read("admin-user-search", `admin users, search by e-mail fragment ("${fragment}")`, routes.users, `/api/v1/admin/users?search=${encodeURIComponent(fragment)}&page=1&limit=${LIMIT}`, adminToken),
    read("admin-users", "admin users, page 1", routes.users, `/api/v1/admin/users?page=1&limit=${LIMIT}`, adminToken),
    read("admin-orders", "admin orders, page 1", routes.orders, `/api/v1/admin/orders?page=1&limit=${LIMIT}`, adminToken),
    read("notifications-1", "notifications (heavy user), page 1", routes.notifications, `/api/v1/notifications?page=1&limit=${LIMIT}`, ownerToken),
    read("notifications-5000", `notifications (heavy user), page ${DEEP_PAGE.toLocaleString("en")}`, routes.notifications, `/api/v1/notifications?page=${DEEP_PAGE}&limit=${LIMIT}`, ownerToken),
    read("unread-count", "unread count (heavy user)", routes.unread, "/api/v1/notifications/unread-count", ownerToken),
    read("hot-scans-1", "the hot tag's scans, page 1", routes.tagScans, `/api/v1/tags/${hot!.id}/scans?page=1&limit=${LIMIT}`, ownerToken, { id: hot!.id }),
    read("hot-scans-5000", `the hot tag's scans, page ${DEEP_PAGE.toLocaleString("en")}`, routes.tagScans, `/api/v1/tags/${hot!.id}/scans?page=${DEEP_PAGE}&limit=${LIMIT}`, ownerToken, { id: hot!.id }),
    read("owner-tags", "owner's tags, page 1", routes.tags, `/api/v1/tags?page=1&limit=${LIMIT}`, ownerToken),
    read("inbox", "owner's inbox (heavy user), page 1", routes.messages, `/api/v1/messages?page=1&limit=${LIMIT}`, ownerToken),
    read("thread", "owner's conversation (4 messages)", routes.thread, `/api/v1/messages/${seededUuid("thread", 1)}`, ownerToken, { threadId: seededUuid("thread", 1) }),
    read("tag", "owner's tag (the hot tag)", routes.tag, `/api/v1/tags/${hot!.id}`, ownerToken, { id: hot!.id }),
    read("my-orders", "owner's orders, page 1", routes.myOrders, `/api/v1/orders?page=1&limit=${LIMIT}`, ownerToken),
    read("scan", "`GET /api/v1/scan/:encryptedId` (a typical tag)", routes.scan, `/api/v1/scan/${typical!.encrypted_id}`, null, { encryptedId: typical!.encrypted_id }, { "user-agent": BROWSER }),
    read("scan-hot", "`GET /api/v1/scan/:encryptedId` (the hot tag)", routes.scan, `/api/v1/scan/${hot!.encrypted_id}`, null, { encryptedId: hot!.encrypted_id }, { "user-agent": BROWSER }),
    {
      key: "finder-page",
      title: "finder page's data (scanTag, a typical tag)",
      call: async () => {
        const ip = nextIp();
        await scanTag({ actor: { kind: "public", ip }, db: handle.db }, typical!.encrypted_id, { ip, userAgent: BROWSER, geo: null, method: "GET", prefetch: false, acceptLanguage: "es-ES,es;q=0.9" });
        return { status: 200 };
      },
    },
  ];

  // Keyset pages, where the lists have them (issue 30's cursors): detected at run time.
  const notificationsCursor = await deepCursor(routes.notifications, "/api/v1/notifications");
  if (notificationsCursor) {
    reads.splice(
      7,
      0,
      {
        ...read("notifications-cursor", "notifications (heavy user), cursor page at depth", routes.notifications, `/api/v1/notifications?cursor=${encodeURIComponent(notificationsCursor.cursor)}&limit=${LIMIT}`, ownerToken),
        note: `page ${notificationsCursor.page.toLocaleString("en")}`,
      },
    );
  }
  const scansCursor = await deepCursor(routes.tagScans, `/api/v1/tags/${hot!.id}/scans`, { id: hot!.id });
  if (scansCursor) {
    reads.splice(reads.findIndex((r) => r.key === "hot-scans-5000") + 1, 0, {
      ...read("hot-scans-cursor", "the hot tag's scans, cursor page at depth", routes.tagScans, `/api/v1/tags/${hot!.id}/scans?cursor=${encodeURIComponent(scansCursor.cursor)}&limit=${LIMIT}`, ownerToken, { id: hot!.id }),
      note: `page ${scansCursor.page.toLocaleString("en")}`,
    });
  }
  return { reads, cursorSupported: Boolean(notificationsCursor ?? scansCursor) };
}

async function time(read: Read): Promise<Timing> {
  const failures: string[] = [];
  for (let i = 0; i < WARM_UP; i++) await read.call();
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    const { status, body } = await read.call();
    samples.push(performance.now() - started);
    if (status !== 200) {
      if (!failures.length) console.error(`${read.title} answered ${status}: ${body?.slice(0, 300)}`);
      failures.push(String(status));
    }
  }
  samples.sort((a, b) => a - b);
  return { key: read.key, title: read.title, p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)), calls: CALLS, failures, note: read.note };
}

interface Captured {
  query: string;
  parameters: unknown[];
}

/** The statements one call of `read` sends (postgres.js's debug hook), BEGIN/COMMIT and the job queue's aside. */
async function captureStatements(handle: DatabaseHandle, read: Read): Promise<Captured[]> {
  if (handle.kind !== "postgres") return [];
  const captured: Captured[] = [];
  const options = handle.sql.options as unknown as { debug?: unknown };
  options.debug = (_connection: number, query: string, parameters: unknown[]) => void captured.push({ query, parameters });
  try {
    await read.call();
  } finally {
    options.debug = false;
  }
  return captured.filter((statement) => !/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(statement.query) && !/pgboss/i.test(statement.query));
}

class RollBack extends Error {}

/** EXPLAIN (ANALYZE, BUFFERS) of each statement, in a transaction rolled back; the slowest first. */
async function explainStatements(url: string, statements: Captured[]): Promise<{ sql: string; executionMs: number; plan: string }[]> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  const explained: { sql: string; executionMs: number; plan: string }[] = [];
  try {
    for (const statement of statements) {
      await client
        .begin(async (tx) => {
          // Twice, the second shown: the first pays for this new session's caches (catalog, plpgsql functions).
          await tx.unsafe(`savepoint first`);
          await tx.unsafe(`explain (analyze) ${statement.query}`, statement.parameters as never[], { prepare: false });
          await tx.unsafe(`rollback to savepoint first`);
          const rows = await tx.unsafe(`explain (analyze, buffers) ${statement.query}`, statement.parameters as never[], { prepare: false });
          const plan = rows.map((row) => Object.values(row)[0] as string).join("\n");
          const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? 0);
          explained.push({ sql: statement.query, executionMs, plan });
          throw new RollBack();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RollBack)) explained.push({ sql: statement.query, executionMs: 0, plan: `(not explained: ${error instanceof Error ? error.message : String(error)})` });
        });
    }
  } finally {
    await client.end({ timeout: 5 });
  }
  return explained.sort((a, b) => b.executionMs - a.executionMs);
}

async function measureSize(baseUrl: string, percent: number, smallest: SizeResult | undefined, log: (line: string) => void): Promise<{ size: SizeResult; explained: Explained[]; cursorSupported: boolean }> {
  const name = databaseName(percent);
  log(`growth ${percent}%: database ${name}`);
  const scratch = await scratchDatabase(baseUrl, name);
  const handle = connectPostgres(scratch.url);
  const { prepareJobs, stopJobs } = await import("@/lib/jobs");
  try {
    const prepared = await prepareSize(scratch.url, handle, percent, log);
    setDatabase(handle);
    await prepareJobs(handle);
    const { reads, cursorSupported } = await readsOf(handle, prepared.volumes);
    const timings: Timing[] = [];
    for (const read of reads) {
      const timing = await time(read);
      timings.push(timing);
      log(`  ${timing.title}: p50 ${timing.p50} ms, p95 ${timing.p95} ms${timing.failures.length ? ` (answers ${timing.failures.join(", ")})` : ""}`);
    }
    const size: SizeResult = { percent, database: name, ...prepared, timings, loadAverage: loadavg().map((n) => Math.round(n * 100) / 100) };
    const explained: Explained[] = [];
    if (smallest) {
      for (const read of reads) {
        const before = smallest.timings.find((t) => t.key === read.key);
        const now = timings.find((t) => t.key === read.key)!;
        if (!before || before.p50 <= 0 || now.p50 / before.p50 <= EXPLAIN_ABOVE) continue;
        const statements = await explainStatements(scratch.url, await captureStatements(handle, read));
        // The statements that matter: those of 1 ms or more (at least the slowest), three at most.
        const shown = statements.filter((s, index) => index === 0 || s.executionMs >= 1).slice(0, 3);
        explained.push({ key: read.key, title: read.title, growth: Math.round((now.p50 / before.p50) * 10) / 10, statements: shown });
        log(`  explained ${read.title}: ${shown.map((s) => `${s.executionMs} ms`).join(", ")}`);
      }
    }
    return { size, explained, cursorSupported };
  } finally {
    await stopJobs({ timeoutMs: 5_000 }).catch(() => {});
    setDatabase(undefined);
    await handle.close();
    await scratch.drop();
  }
}

/** `--sizes=1,10,100` (percent of issue 30's volumes); 1, 10 and 100 by default. */
export function growthSizes(argv: string[]): number[] {
  const argument = argv.find((arg) => arg.startsWith("--sizes="))?.slice("--sizes=".length);
  const sizes = (argument ?? "1,10,100").split(",").map(Number);
  if (!sizes.length || sizes.some((size) => !Number.isFinite(size) || size <= 0 || size > 100)) throw new Error("--sizes takes percentages of the full volumes, e.g. --sizes=1,10,100");
  return [...new Set(sizes)].sort((a, b) => a - b);
}

/**
 * Measures each size in turn; after each, `onSize` gets the result so far (the runner saves it, so a run
 * stopped during the full size keeps the smaller ones). A size that fails ends the run with its error noted.
 */
export async function growthBench(sizes: number[], log: (line: string) => void = console.log, onSize: (result: GrowthResult) => void = () => {}): Promise<GrowthResult | string> {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!baseUrl) return "no PostgreSQL (BENCH_DATABASE_URL or DATABASE_URL)";
  const result: GrowthResult = { date: new Date().toISOString(), calls: CALLS, cursorSupported: false, sizes: [], explained: [] };
  for (const percent of sizes) {
    const last = percent === sizes[sizes.length - 1];
    try {
      const measured = await measureSize(baseUrl, percent, last && sizes.length > 1 ? result.sizes[0] : undefined, log);
      result.sizes.push(measured.size);
      result.explained.push(...measured.explained);
      result.cursorSupported ||= measured.cursorSupported;
    } catch (error) {
      result.failed = { percent, error: error instanceof Error ? error.message : String(error) };
      log(`growth ${percent}% failed: ${result.failed.error}`);
      if (!result.sizes.length) throw error;
      break;
    }
    onSize(result);
  }
  return result;
}

const mb = (bytes: number) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${Math.round(bytes / 1e6)} MB`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sizeLabel = (percent: number) => (percent === 100 ? "full size" : `${percent}%`);

/** The size × read table with the growth from the smallest size to the largest (p50; p95 in brackets). */
export function growthTable(result: GrowthResult): string {
  const first = result.sizes[0]!;
  const last = result.sizes[result.sizes.length - 1]!;
  const header = `| read | ${result.sizes.map((size) => `${sizeLabel(size.percent)} p50 / p95 ms`).join(" | ")} | growth (p50) |`;
  const lines = [header, `|---|${result.sizes.map(() => "---:").join("|")}|---:|`];
  for (const timing of last.timings) {
    const cells = result.sizes.map((size) => {
      const t = size.timings.find((x) => x.key === timing.key);
      if (!t) return "–";
      return `${t.p50} / ${t.p95}${t.failures.length ? ` (${t.failures.length}× ${[...new Set(t.failures)].join(", ")})` : ""}${t.note ? ` (${t.note})` : ""}`;
    });
    const before = first.timings.find((t) => t.key === timing.key);
    const growth = before && result.sizes.length > 1 && before.p50 > 0 ? timing.p50 / before.p50 : undefined;
    const factor = growth === undefined ? "–" : growth > EXPLAIN_ABOVE ? `**${growth.toFixed(1)}×**` : `${growth.toFixed(1)}×`;
    lines.push(`| ${timing.title} | ${cells.join(" | ")} | ${factor} |`);
  }
  return lines.join("\n");
}

export function formatGrowth(result: GrowthResult): string {
  const full = FULL_VOLUMES;
  const lines = [
    "# Growth bench",
    "",
    `\`npm run bench -- --only=growth --sizes=${result.sizes.map((s) => s.percent).join(",")}\`, ${result.date.slice(0, 16).replace("T", " ")} UTC. Each size is a`,
    `percentage of issue 30's volumes (${full.users.toLocaleString("en")} users, ${full.tags.toLocaleString("en")} tags, ${full.scans.toLocaleString("en")} scans over a year with`,
    `${full.hotTagScans.toLocaleString("en")} on one hot tag, ${full.conversations.toLocaleString("en")} conversations with ${full.messages.toLocaleString("en")} messages, ${full.notifications.toLocaleString("en")} notifications`,
    `with ${full.heavyUserNotifications.toLocaleString("en")} for one heavy user, ${full.orders.toLocaleString("en")} orders), seeded by generate_series in a scratch PostgreSQL database.`,
    `Each read: ${WARM_UP} warm-up calls, then ${result.calls} timed one after another through its route handler (a real Request,`,
    "a bearer token of a real session); the owner is the heavy user, who also owns the hot tag. Growth is the",
    `largest size's p50 over the smallest's; over ${EXPLAIN_ABOVE}× is in bold, and its slowest statements' plans follow.`,
    `Keyset cursors: ${result.cursorSupported ? "supported (cursor rows: a cursor as deep as the list goes, page 5,000 at most)" : "not supported by the lists measured (no `meta.nextCursor`)"}.`,
    "",
    growthTable(result),
    ...(result.failed ? ["", `The ${sizeLabel(result.failed.percent)} size failed: ${result.failed.error}`] : []),
    "",
    "| size | users / tags / scans (hot tag) / conversations / messages / notifications (heavy user) / orders | seed | later migrations | vacuum analyze | database | largest tables | load average |",
    "|---|---|---:|---:|---:|---:|---|---|",
    ...result.sizes.map((size) => {
      const v = size.volumes;
      const counts = [v.users, v.tags, `${v.scans.toLocaleString("en")} (${v.hotTagScans.toLocaleString("en")})`, v.conversations, v.messages, `${v.notifications.toLocaleString("en")} (${v.heavyUserNotifications.toLocaleString("en")})`, v.orders]
        .map((n) => (typeof n === "number" ? n.toLocaleString("en") : n))
        .join(" / ");
      const tables = Object.entries(size.tableBytes)
        .slice(0, 4)
        .map(([name, bytes]) => `${name} ${mb(bytes)}`)
        .join(", ");
      return `| ${sizeLabel(size.percent)} | ${counts} | ${seconds(size.seedMs)} | ${seconds(size.laterMigrationsMs)} | ${seconds(size.vacuumMs)} | ${mb(size.databaseBytes)} | ${tables} | ${size.loadAverage.join(" ")} |`;
    }),
    "",
    `The seed writes the tables as of migration ${SEED_MIGRATION}; the later migrations (${result.sizes[0]?.laterMigrations.join(", ") || "none"}) then ran on the seeded rows.`,
    "",
    "Seeding steps (largest size):",
    "",
    ...result.sizes[result.sizes.length - 1]!.seedSteps.map((step) => `- ${step.step}: ${step.rows ? `${step.rows.toLocaleString("en")} rows, ` : ""}${seconds(step.ms)}`),
  ];
  for (const explained of result.explained) {
    lines.push("", `## ${explained.title}: ${explained.growth}× (EXPLAIN (ANALYZE, BUFFERS) at ${sizeLabel(result.sizes[result.sizes.length - 1]!.percent)})`);
    for (const statement of explained.statements) {
      lines.push("", "```sql", statement.sql.replace(/\s+/g, " ").trim(), "```", "", "```", statement.plan, "```");
    }
  }
  return `${lines.join("\n")}\n`;
}

export function saveGrowth(result: GrowthResult): string {
  const stamp = result.date.slice(0, 19).replace(/:/g, "-");
  const file = path.join(import.meta.dirname, "results", `growth-${stamp}.md`);
  writeFileSync(file, formatGrowth(result));
  writeFileSync(file.replace(/\.md$/, ".json"), `${JSON.stringify(result, null, 2)}\n`);
  return file;
}
