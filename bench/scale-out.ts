/**
 * `npm run bench -- --instances 2` (also in the default run): N `next start` instances of the current build
 * (`npm run build` first) on ONE scratch PostgreSQL database and ONE Redis, started at the same moment, with
 * the real rate limits and TRUST_PROXY=true (the bench is the load balancer: each simulated client has its
 * own X-Forwarded-For address). It checks, through the instances' HTTP APIs only:
 *
 * - start-up: the instances seeded together, once (one SUPER_ADMIN, who signs in on every instance; no
 *   start-up step failed);
 * - rate limits are shared: one client's 31st scan in a minute is refused whichever instance gets it;
 * - a notification created through instance A reaches streams held by every instance;
 * - a job runs once: every scan's e-mail job, run by whichever instance's workers take it, gives one e-mail;
 * - a session revoked on A is refused on B at once, and its stream on B ends;
 *
 * then the SSE fan-out: BENCH_STREAMS (2,000) users, each with one stream, spread over the instances; their
 * resident memory before and after the streams open gives the memory per idle stream; then one scan of each
 * user's tag through instance A (BENCH_SCAN_CONCURRENCY at a time, each from its own address), and each
 * notification's arrival on its stream, measured from its `createdAt` (the start of the transaction that
 * created it, so the figure includes that transaction).
 *
 * The fan-out users, their sessions and their tags' ownership are written with SQL (2,000 sign-ups through
 * the API would measure scrypt); the tags are minted through the admin API, and everything measured goes
 * through the instances. Figures go to bench/results/<date>-scale-out.json.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { accessTokenKey, signAccessToken } from "./access-token";
import { api, BROWSER, expectStatus } from "./compare";
import { children, freePort, nextStartEnvironment, rssKb, startNext, stopChild, waitUntilAnswering, withCleanUp, type Server } from "./processes";
import { createScratchDatabase, migrateScratch } from "./scratch-postgres";

const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);
const SCAN_CONCURRENCY = Number(process.env.BENCH_SCAN_CONCURRENCY ?? 32);
/** How long to wait for every notification of the burst after the last scan answered. */
const ARRIVAL_GRACE_MS = 30_000;
const IDLE_SETTLE_MS = 5_000;
const CHECK_TIMEOUT_MS = 5_000;
const FETCH_TIMEOUT_MS = 15_000;
const CHECK_USERS = 24;
const repoRoot = process.cwd();

interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

export interface ScaleOutResult {
  date: string;
  machine: { cpus: number; model: string; loadAverage: number[]; node: string };
  instances: number;
  checks: Check[];
  fanOut: {
    streams: number;
    streamsPerInstance: number[];
    /** V8 heap used + external memory growth after a full GC ÷ streams, per instance: the goal's figure. */
    heapPerStreamKb: number[];
    /** Resident memory growth after a full GC ÷ streams (noisier: the allocator returns memory when it likes). */
    memoryPerStreamKb: number[];
    /** Resident memory growth with no collection first (/proc), ÷ streams: an upper bound. */
    uncollectedPerStreamKb: number[];
    /** The same for bare event streams from an empty route handler (/api/bench-floor/stream): Next's own share. */
    floorPerStreamKb: number[];
    floorHeapPerStreamKb: number[];
    collected: boolean;
    scans: number;
    scanSeconds: number;
    scanRate: number;
    scanFailures: number;
    delivered: number;
    lost: number;
    duplicates: number;
    arrivalMs: { p50: number; p95: number; p99: number; max: number };
  };
  goals: { goal: string; figure: string; met: boolean | null }[];
}

// ---------------------------------------------------------------------------------------------------------
// An SSE client: one http request held open, frames parsed as they come.

interface Arrival {
  id: string;
  createdAt: number;
  arrivedAt: number;
}

const wallClock = () => performance.timeOrigin + performance.now();

class StreamClient {
  readonly arrivals: Arrival[] = [];
  ended = false;
  private request: http.ClientRequest | undefined;
  private buffer = "";
  private waiters: (() => void)[] = [];

  constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  /** Resolves once the stream answered 200 and sent its first frame (the retry line). */
  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { Accept: "text/event-stream" };
      if (this.token) headers.Authorization = `Bearer ${this.token}`;
      const request = http.request(this.url, { headers, agent: false });
      this.request = request;
      const timer = setTimeout(() => reject(new Error(`stream ${this.url} did not open in ${FETCH_TIMEOUT_MS} ms`)), FETCH_TIMEOUT_MS);
      request.on("response", (response) => {
        if (response.statusCode !== 200) {
          clearTimeout(timer);
          response.resume();
          reject(new Error(`stream ${this.url} answered ${response.statusCode}`));
          return;
        }
        response.setEncoding("utf8");
        let first = true;
        response.on("data", (chunk: string) => {
          if (first) {
            first = false;
            clearTimeout(timer);
            resolve();
          }
          this.received(chunk);
        });
        response.on("end", () => this.finish());
        response.on("error", () => this.finish());
      });
      request.on("error", (error) => {
        clearTimeout(timer);
        this.finish();
        reject(error);
      });
      request.end();
    });
  }

  private received(chunk: string): void {
    const arrivedAt = wallClock();
    this.buffer += chunk;
    for (let end = this.buffer.indexOf("\n\n"); end >= 0; end = this.buffer.indexOf("\n\n")) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (/^event: notification$/m.test(frame) && data) {
        const parsed = JSON.parse(data) as { id: string; createdAt: string };
        this.arrivals.push({ id: parsed.id, createdAt: Date.parse(parsed.createdAt), arrivedAt });
      }
    }
    this.wake();
  }

  private finish(): void {
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Waits until `done()` holds (checked at every frame and at the end), or the timeout. */
  async until(done: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(remaining, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }

  close(): void {
    this.request?.destroy();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Helpers.

interface ProcessMemory {
  collected: boolean;
  rss: number;
  heapUsed: number;
  external: number;
}

/** An instance's process.memoryUsage() after a full GC (/api/bench-floor/memory, BENCH_FLOOR=true). */
async function memoryOf(server: Server): Promise<ProcessMemory> {
  const response = await fetch(new URL("/api/bench-floor/memory", server.url), { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (response.status !== 200) throw new Error(`${server.name}: /api/bench-floor/memory answered ${response.status}`);
  return ((await response.json()) as { data: ProcessMemory }).data;
}

let addressCounter = 0;
/** A new client address for X-Forwarded-For (10.0.0.0/8: never a real visitor's). */
function nextAddress(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

async function scan(server: Server, encryptedId: string, address: string): Promise<number> {
  const response = await fetch(new URL(`/api/v1/scan/${encryptedId}`, server.url), {
    headers: { "User-Agent": BROWSER, "X-Forwarded-For": address },
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Runs `work` over `items` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function percentile(sorted: number[], share: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round1 = (n: number) => Math.round(n * 10) / 10;

// ---------------------------------------------------------------------------------------------------------
// The run.

export async function scaleOut(instanceCount = 2): Promise<ScaleOutResult | string> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) return "needs PostgreSQL and Redis: set BENCH_DATABASE_URL (or DATABASE_URL) and BENCH_REDIS_URL (or REDIS_URL)";
  if (!existsSync(path.join(repoRoot, ".next", "BUILD_ID"))) return "no production build in .next: run `npm run build` first (the bench builds nothing itself)";
  if (instanceCount < 2) return "--instances needs 2 or more";

  const scratch = await createScratchDatabase(databaseUrl);
  const sql = postgres(scratch.url, { max: 2, onnotice: () => {} });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tagsvc-scale-"));
  const streams: StreamClient[] = [];
  const cleanUp = async () => {
    for (const stream of streams) stream.close();
    await Promise.all([...children].map(stopChild));
    await sql.end({ timeout: 5 }).catch(() => {});
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return withCleanUp(`stopping the instances and dropping ${scratch.name}`, cleanUp, async () => {
    await migrateScratch(scratch.url);

    // -------------------------------------------------------------------------------------------------------
    // N instances, started at the same moment, as a deployment would; the public origin is the load
    // balancer's (here, the first instance's).
    const secret = randomBytes(32).toString("base64url");
    const adminAccount = { email: "scale-admin@example.com", password: `Bench-${randomBytes(9).toString("base64url")}` };
    const ports = await Promise.all(Array.from({ length: instanceCount }, () => freePort()));
    const environment = nextStartEnvironment({
      databaseUrl: scratch.url,
      redisUrl,
      appUrl: `http://127.0.0.1:${ports[0]}`,
      dataDir,
      authSecret: secret,
      admin: adminAccount,
      // BENCH_FLOOR serves /api/bench-floor/memory, which collects garbage first with --expose-gc.
      extra: { TRUST_PROXY: "true", BENCH_FLOOR: "true", NODE_OPTIONS: "--expose-gc" },
    });
    const instances = ports.map((port, index) => startNext(`instance ${String.fromCharCode(65 + index)}`, port, environment));
    await Promise.all(instances.map((instance) => waitUntilAnswering(instance, "/api/health")));
    const [a, b] = [instances[0]!, instances[1]!];
    const label = (server: Server) => server.name.replace("instance ", "");
    console.log(`scale-out: ${instanceCount} instances (${instances.map((i) => `${label(i)} ${i.url}`).join(", ")}), database ${scratch.name}, Redis ${redisUrl}`);

    const checks: Check[] = [];
    const check = (name: string, passed: boolean, detail: string) => {
      checks.push({ name, passed, detail });
      console.log(`  ${passed ? "ok  " : "FAIL"} ${name}: ${detail}`);
    };

    // Start-up: seeded once, by whichever instance got there first.
    const adminTokens: string[] = [];
    for (const instance of instances) {
      const login = await api<{ accessToken: string }>(instance.url, "POST", "/api/v1/auth/login", adminAccount, undefined, { "X-Forwarded-For": nextAddress() });
      if (login.status === 200) adminTokens.push(login.data.accessToken);
    }
    const [{ admins }] = (await sql`select count(*)::int as admins from users where role = 'SUPER_ADMIN'`) as unknown as [{ admins: number }];
    const startupFailures = instances.flatMap((instance) =>
      instance.output
        .join("")
        .split("\n")
        .filter((line) => /startup step failed/.test(line))
        .map((line) => `${label(instance)}: ${line.slice(0, 400)}`),
    );
    check(
      "instances started together seed once",
      admins === 1 && adminTokens.length === instanceCount && startupFailures.length === 0,
      `${admins} SUPER_ADMIN; signs in on ${adminTokens.length} of ${instanceCount}; start-up failures: ${startupFailures.join(" | ") || "none"}`,
    );
    if (!adminTokens.length) throw new Error(`no instance signs the admin in:\n${a.output.join("").slice(-2_000)}`);

    // -------------------------------------------------------------------------------------------------------
    // Users, sessions and tags: the fan-out's STREAMS users, then CHECK_USERS for the checks.
    const userCount = STREAMS + CHECK_USERS;
    const run = randomBytes(3).toString("hex");
    const users = (await sql`
      insert into users (email, password_hash, first_name, last_name, email_verified)
      select 'scale-' || ${run} || '-' || i || '@example.com', 'not-a-password-hash', 'Scale', 'User ' || i, true
      from generate_series(1, ${userCount}) as i
      returning id, email`) as unknown as { id: string; email: string }[];
    users.sort((x, y) => Number(x.email.split("-")[2]!.split("@")[0]) - Number(y.email.split("-")[2]!.split("@")[0]));
    const sessions = (await sql`
      insert into sessions (user_id, kind, expires_at)
      select id, 'API', now() + interval '1 day' from unnest(${sql.array(users.map((u) => u.id))}::uuid[]) as id
      returning id, user_id`) as unknown as { id: string; user_id: string }[];
    const sessionOf = new Map(sessions.map((s) => [s.user_id, s.id]));
    const minted: { id: string; encryptedId: string }[] = [];
    for (let left = userCount; left > 0; left -= 1000) {
      const batch = await api<{ id: string; encryptedId: string }[]>(a.url, "POST", "/api/v1/admin/tags/batch", { count: Math.min(1000, left) }, adminTokens[0]);
      expectStatus("minting", batch, 201);
      minted.push(...batch.data);
    }
    await sql`
      update tags set owner_id = pairs.user_id, status = 'ACTIVE', item_name = 'Scale-out item'
      from unnest(${sql.array(minted.map((t) => t.id))}::uuid[], ${sql.array(users.map((u) => u.id))}::uuid[]) as pairs(tag_id, user_id)
      where tags.id = pairs.tag_id`;
    const key = accessTokenKey(secret);
    const tokenOf = (userId: string) => signAccessToken(key, { userId, sessionId: sessionOf.get(userId)! });
    const streamUrl = (server: Server) => new URL("/api/v1/notifications/stream", server.url).toString();
    const fanOutUsers = users.slice(0, STREAMS);
    const checkUsers = users.slice(STREAMS);
    const tagOf = (index: number) => minted[index]!.encryptedId;

    // -------------------------------------------------------------------------------------------------------
    // Rate limits are shared: 31 scans from one address, alternating instances; the 31st lands on A, then on B.
    for (const [offset, lastOn] of [
      [0, a],
      [1, b],
    ] as const) {
      const address = nextAddress();
      const statuses: number[] = [];
      for (let i = 0; i < 31; i += 1) statuses.push(await scan(instances[(i + offset + 1) % 2]!, tagOf(STREAMS), address));
      const first30 = statuses.slice(0, 30);
      check(
        `the 31st scan in a minute is refused on ${label(lastOn)}`,
        first30.every((s) => s === 200) && statuses[30] === 429,
        `first 30: ${[...new Set(first30)].join("/")} (alternating instances), 31st on ${label(lastOn)}: ${statuses[30]}`,
      );
    }

    // A notification created through A reaches a stream of its user on every instance.
    {
      const owner = checkUsers[1]!;
      const held = await Promise.all(instances.map(async (instance) => new StreamClient(streamUrl(instance), await tokenOf(owner.id))));
      streams.push(...held);
      await Promise.all(held.map((stream) => stream.open()));
      const started = wallClock();
      const status = await scan(a, tagOf(STREAMS + 1), nextAddress());
      const arrived = await Promise.all(held.map((stream) => stream.until(() => stream.arrivals.length > 0, CHECK_TIMEOUT_MS)));
      const ids = new Set(held.flatMap((stream) => stream.arrivals.map((x) => x.id)));
      const slowest = Math.max(...held.map((stream) => (stream.arrivals[0]?.arrivedAt ?? Infinity) - started));
      check(
        "a notification created through A reaches streams on every instance",
        status === 200 && arrived.every(Boolean) && ids.size === 1,
        `scan ${status}; the frame reached ${arrived.filter(Boolean).length} of ${instanceCount} streams (one id: ${ids.size === 1}), the last ${Math.round(slowest)} ms after the scan was sent`,
      );
      for (const stream of held) stream.close();
    }

    // A job runs once: CHECK_USERS - 2 scans, alternating instances, each queue one e-mail job.
    {
      const owners = checkUsers.slice(2);
      await pool(owners, 8, async (_owner, index) => {
        await scan(instances[index % instanceCount]!, tagOf(STREAMS + 2 + index), nextAddress());
      });
      const emails = owners.map((owner) => owner.email);
      const count = async () => (await sql`select "to", count(*)::int as n from email_outbox where "to" = any(${sql.array(emails)}) group by 1`) as unknown as { to: string; n: number }[];
      const deadline = Date.now() + 60_000;
      let rows = await count();
      while (rows.length < owners.length && Date.now() < deadline) {
        await sleep(500);
        rows = await count();
      }
      await sleep(3_000); // a second run of a job would have shown by now
      rows = await count();
      const twice = rows.filter((row) => row.n > 1).length;
      check("a job runs once", rows.length === owners.length && twice === 0, `${owners.length} scans → e-mails to ${rows.length} owners, ${twice} twice`);
    }

    // A session revoked on A is refused on B at once, and its stream on B ends.
    {
      const address = nextAddress();
      const registered = await api<{ accessToken: string }>(
        a.url,
        "POST",
        "/api/v1/auth/register",
        { email: `scale-${run}-revoke@example.com`, password: "Bench-password-1", firstName: "Revoke", lastName: "Check" },
        undefined,
        { "X-Forwarded-For": address },
      );
      expectStatus("register", registered, 201);
      const token = registered.data.accessToken;
      const before = await api(b.url, "GET", "/api/v1/auth/me", undefined, token);
      const stream = new StreamClient(streamUrl(b), token);
      streams.push(stream);
      await stream.open();
      const logout = await api(a.url, "POST", "/api/v1/auth/logout", {}, token, { "X-Forwarded-For": address });
      const after = await api(b.url, "GET", "/api/v1/auth/me", undefined, token);
      const revokedAt = wallClock();
      const ended = await stream.until(() => stream.ended, CHECK_TIMEOUT_MS);
      check(
        "a session revoked on A is refused on B at once",
        before.status === 200 && logout.status === 200 && after.status === 401 && ended,
        `me on B before: ${before.status}; logout on A: ${logout.status}; me on B right after: ${after.status}; its stream on B ${ended ? `ended ${Math.round(wallClock() - revokedAt)} ms later` : "still open"}`,
      );
    }

    // -------------------------------------------------------------------------------------------------------
    // The fan-out: one stream per user, spread over the instances.
    const pids = instances.map((instance) => instance.child.pid!);
    await sleep(IDLE_SETTLE_MS);
    const memoryBefore = await Promise.all(instances.map(memoryOf));
    const rssBeforeKb = pids.map(rssKb);
    const fanOut = await Promise.all(fanOutUsers.map(async (user, index) => new StreamClient(streamUrl(instances[index % instanceCount]!), await tokenOf(user.id))));
    streams.push(...fanOut);
    await pool(fanOut, 100, (stream) => stream.open());
    await sleep(IDLE_SETTLE_MS);
    const memoryAfter = await Promise.all(instances.map(memoryOf));
    const rssAfterKb = pids.map(rssKb);
    const streamsPerInstance = instances.map((_, i) => fanOut.filter((_, index) => index % instanceCount === i).length);
    const perStream = (before: number, after: number, i: number) => round1((after - before) / 1024 / streamsPerInstance[i]!);
    // After a full collection, so garbage left by opening the streams does not count as theirs.
    const memoryPerStreamKb = instances.map((_, i) => perStream(memoryBefore[i]!.rss, memoryAfter[i]!.rss, i));
    const heapPerStreamKb = instances.map((_, i) => perStream(memoryBefore[i]!.heapUsed + memoryBefore[i]!.external, memoryAfter[i]!.heapUsed + memoryAfter[i]!.external, i));
    const uncollectedPerStreamKb = instances.map((_, i) => round1((rssAfterKb[i]! - rssBeforeKb[i]!) / streamsPerInstance[i]!));
    console.log(
      `  ${fanOut.length} streams open (${streamsPerInstance.join(" + ")}); resident memory after a full GC ` +
        `${memoryBefore.map((m, i) => `${label(instances[i]!)} ${Math.round(m.rss / 1048576)} → ${Math.round(memoryAfter[i]!.rss / 1048576)} MB`).join(", ")}` +
        `${memoryAfter.every((m) => m.collected) ? "" : " (NOT collected: start without --expose-gc)"}`,
    );

    // The burst: one scan of each user's tag through A.
    let scanFailures = 0;
    const burstStarted = wallClock();
    await pool(fanOutUsers, SCAN_CONCURRENCY, async (_user, index) => {
      const status = await scan(a, tagOf(index), nextAddress()).catch(() => 0);
      if (status !== 200) scanFailures += 1;
    });
    const scanSeconds = (wallClock() - burstStarted) / 1000;
    await Promise.all(fanOut.map((stream) => stream.until(() => stream.arrivals.length > 0 || stream.ended, ARRIVAL_GRACE_MS)));
    const latencies = fanOut.flatMap((stream) => stream.arrivals.slice(0, 1).map((x) => x.arrivedAt - x.createdAt)).sort((x, y) => x - y);
    const delivered = fanOut.filter((stream) => stream.arrivals.length > 0).length;
    const duplicates = fanOut.reduce((n, stream) => n + Math.max(0, stream.arrivals.length - 1), 0);

    // The framework floor of a stream: as many bare event streams (/api/bench-floor/stream) per instance,
    // measured the same way once ours are closed.
    for (const stream of fanOut) stream.close();
    await sleep(IDLE_SETTLE_MS);
    const floorBefore = await Promise.all(instances.map(memoryOf));
    const floorStreams = fanOut.map((_, index) => new StreamClient(new URL("/api/bench-floor/stream", instances[index % instanceCount]!.url).toString(), ""));
    streams.push(...floorStreams);
    await pool(floorStreams, 100, (stream) => stream.open());
    await sleep(IDLE_SETTLE_MS);
    const floorAfter = await Promise.all(instances.map(memoryOf));
    const floorPerStreamKb = instances.map((_, i) => perStream(floorBefore[i]!.rss, floorAfter[i]!.rss, i));
    const floorHeapPerStreamKb = instances.map((_, i) => perStream(floorBefore[i]!.heapUsed + floorBefore[i]!.external, floorAfter[i]!.heapUsed + floorAfter[i]!.external, i));
    for (const stream of floorStreams) stream.close();
    console.log(`  floor streams: ${floorPerStreamKb.join(" / ")} KB resident, ${floorHeapPerStreamKb.join(" / ")} KB heap + external per stream`);
    const result: ScaleOutResult = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? "?", loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100), node: process.version },
      instances: instanceCount,
      checks,
      fanOut: {
        streams: fanOut.length,
        streamsPerInstance,
        memoryPerStreamKb,
        heapPerStreamKb,
        uncollectedPerStreamKb,
        floorPerStreamKb,
        floorHeapPerStreamKb,
        collected: memoryAfter.every((m) => m.collected),
        scans: fanOutUsers.length,
        scanSeconds: round1(scanSeconds),
        scanRate: round1(fanOutUsers.length / scanSeconds),
        scanFailures,
        delivered,
        lost: fanOut.length - delivered,
        duplicates,
        arrivalMs: { p50: round1(percentile(latencies, 0.5)), p95: round1(percentile(latencies, 0.95)), p99: round1(percentile(latencies, 0.99)), max: round1(latencies.at(-1) ?? 0) },
      },
      goals: [],
    };
    result.goals = goalsOf(result);
    return result;
  });
}

function goalsOf(result: ScaleOutResult): ScaleOutResult["goals"] {
  const f = result.fanOut;
  const failed = result.checks.filter((c) => !c.passed);
  return [
    {
      goal: `scale-out: ${result.instances} instances share rate limits, SSE fan-out, jobs and revocations`,
      figure: `${result.checks.length - failed.length} of ${result.checks.length} checks passed${failed.length ? ` (failed: ${failed.map((c) => c.name).join("; ")})` : ""}`,
      met: failed.length === 0,
    },
    {
      goal: `SSE: ${f.streams} streams on ${result.instances} instances, one notification each in a burst: p99 arrival ≤ 1 s`,
      figure: `p99 ${f.arrivalMs.p99} ms (p50 ${f.arrivalMs.p50}, max ${f.arrivalMs.max}); ${f.delivered} delivered, ${f.lost} lost, ${f.duplicates} twice; ${f.scans} scans in ${f.scanSeconds} s (${f.scanRate}/s), ${f.scanFailures} failed`,
      met: f.lost === 0 && f.duplicates === 0 && f.scanFailures === 0 && f.arrivalMs.p99 <= 1000,
    },
    {
      goal: "SSE: memory per idle stream ≤ 50 KB",
      figure:
        `${f.heapPerStreamKb.map((kb) => `${kb} KB`).join(" / ")} per stream (V8 heap + external after a full GC ÷ streams, per instance; ` +
        `resident memory ${f.memoryPerStreamKb.map((kb) => `${kb} KB`).join(" / ")}); a bare event stream of an empty route handler (the floor): ` +
        `${f.floorHeapPerStreamKb.map((kb) => `${kb} KB`).join(" / ")}`,
      met: f.collected && f.heapPerStreamKb.every((kb) => kb <= 50),
    },
  ];
}

export function formatScaleOut(result: ScaleOutResult): string {
  const lines = ["| check | | detail |", "|---|---|---|"];
  for (const c of result.checks) lines.push(`| ${c.name} | ${c.passed ? "ok" : "**failed**"} | ${c.detail} |`);
  lines.push("", "| goal (issue 16) | figure | |", "|---|---|---|");
  for (const goal of result.goals) lines.push(`| ${goal.goal} | ${goal.figure} | ${goal.met === null ? "?" : goal.met ? "met" : "**not met**"} |`);
  lines.push("", `${result.machine.cpus} × ${result.machine.model}, load average ${result.machine.loadAverage.join(" ")} at the end; Node ${result.machine.node}.`);
  return lines.join("\n");
}

export function saveScaleOut(result: ScaleOutResult): string {
  const folder = path.join(repoRoot, "bench/results");
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${result.date.slice(0, 19).replaceAll(":", "-")}-scale-out.json`);
  writeFileSync(file, JSON.stringify(result, null, 2) + "\n");
  return path.relative(repoRoot, file);
}
