/**
 * `npm run bench`:
 * 1. The e-mail burst (bench/email-burst.ts), in this process: 200 e-mails from 200 committed
 *    transactions, commit-to-transport delay and throughput; then a 5,000-address campaign
 *    (bench/campaign.ts) through the job workers and through the local Resend server at the send rate;
 *    on PGlite and on PostgreSQL when BENCH_DATABASE_URL or DATABASE_URL is set.
 * 2. The payment webhook (bench/webhook-load.ts), in this process: signed events through the route handler at
 *    100/s for 10 s (acknowledgement p50/p99, zero lost), and one event delivered 10 times at once (one row,
 *    one job); on PGlite and on PostgreSQL as for the e-mails.
 * 3. The comparison (bench/compare.ts): ours, the framework floor and the bare baseline
 *    (bench/baseline-server.ts) under the same load, alternating, on a scratch PostgreSQL database and real
 *    Redis; needs `npm run build` first and BENCH_DATABASE_URL (or DATABASE_URL) and BENCH_REDIS_URL (or
 *    REDIS_URL). Prints every goal of issue 16 with met / not met and writes bench/results/<date>.json.
 * 5. `-- --only=http` (not in the default run): a bounded HTTP load against a server you started yourself,
 *      RATE_LIMIT_MULTIPLIER=1000 npm run start   (so the limiter doesn't answer 429s)
 *      BENCH_URL=http://127.0.0.1:3000 npm run bench -- --only=http
 *    Each scenario sends a fixed number of requests (and stops after a time cap) with fixed concurrency and
 *    reports throughput and latency percentiles, for orientation only: absolute figures on a shared machine
 *    mean little (issue 16), so nothing is compared with committed figures; the comparison that counts is (3).
 *    The public scan scenarios need tags: the run mints them as the admin of ADMIN_EMAIL/ADMIN_PASSWORD (the
 *    server's own seeded SUPER_ADMIN; BENCH_ADMIN_EMAIL/BENCH_ADMIN_PASSWORD override) and the bench user
 *    claims them. Without those credentials the scan scenarios are skipped, saying so.
 * 4. The scale-out (bench/scale-out.ts): two `next start` instances (`-- --instances N` for N, and that part
 *    alone) on one PostgreSQL and Redis: shared rate limits, SSE fan-out across instances, jobs run once,
 *    revocations seen at once, then 2,000 streams and a notification burst (arrival p99, memory per stream).
 * 6. `-- --profile=<scenario>` (not in the default run): a CPU profile of our server under one of the
 *    comparison's loads (tag, messages, me, scan, finder), summarised per request (bench/profile.ts).
 * 7. `-- --only=alerts` (not in the default run): the lost-pet alert fan-out (bench/alerts.ts) on a scratch
 *    PostgreSQL database: 100,000 watch areas, one alert reaching ~2,000, raise → every notification stored
 *    with its jobs, and the recipient query's plan; written to bench/results/alerts.md.
 * 8. `-- --only=growth [--sizes=1,10,100]` (not in the default run): the growth bench (bench/growth.ts): each read
 *    that touches a growing table timed at 1%, 10% and 100% of issue 30's volumes (scratch PostgreSQL databases
 *    seeded by generate_series), the growth factor, and the plans of the reads that grow more than 2×;
 *    written to bench/results/growth-<date>.md.
 * `-- --only=email`, `-- --only=webhook`, `-- --only=scale-out`, `-- --only=compare` or `-- --only=http` runs one part.
 */
interface Scenario {
  name: string;
  /** The request path; a function gets the request's number (to spread requests over several tags). */
  path: string | ((request: number) => string);
  method?: string;
  body?: string;
  expectStatus: number;
  /** Sent with the bench user's bearer token (a user registered at the start of the run). */
  authenticated?: boolean;
  headers?: Record<string, string>;
  /** Needs the scan tags the run prepares (see benchScanTags). */
  scanTags?: boolean;
}

interface Result {
  name: string;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

const baseUrl = process.env.BENCH_URL ?? "http://127.0.0.1:3000";
const target = new URL(baseUrl);
if (!["127.0.0.1", "localhost", "[::1]"].includes(target.hostname)) {
  throw new Error(`bench only targets this machine (loopback), not ${target.hostname}`);
}
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const TIME_CAP_MS = Number(process.env.BENCH_TIME_CAP_MS ?? 60_000);

const BENCH_BROWSER = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1";

let scanTagIds: string[] = [];

const scenarios: Scenario[] = [
  { name: "health (db + cache check)", path: "/api/health", expectStatus: 200 },
  { name: "unknown api path (kernel only)", path: "/api/v1/bench/unknown", expectStatus: 404 },
  { name: "openapi document", path: "/api/v1/openapi.json", expectStatus: 200 },
  // Authenticated reads: token check against the live session, then the query.
  { name: "unread count (bearer)", path: "/api/v1/notifications/unread-count", expectStatus: 200, authenticated: true },
  { name: "notifications page (bearer)", path: "/api/v1/notifications?page=1&limit=20", expectStatus: 200, authenticated: true },
  { name: "tags list (bearer)", path: "/api/v1/tags?page=1&limit=20", expectStatus: 200, authenticated: true },
  // Public scans (a browser's user agent, no credential): each one is a transaction that locks the tag's
  // row, classifies (the first is REAL and notifies, the rest from this one IP are REPEAT), stores and
  // counts the scan, then builds the public view. One tag: every request waits for the same row lock.
  { name: "scan, one tag (public)", path: () => `/api/v1/scan/${scanTagIds[0]}`, expectStatus: 200, headers: { "User-Agent": BENCH_BROWSER }, scanTags: true },
  { name: "scan, 5 tags round-robin (public)", path: (n) => `/api/v1/scan/${scanTagIds[n % scanTagIds.length]}`, expectStatus: 200, headers: { "User-Agent": BENCH_BROWSER }, scanTags: true },
  // The finder's page a QR code opens: the same scan, then the server-rendered HTML in the finder's language.
  { name: "finder page /t/…, 5 tags (HTML)", path: (n) => `/t/${scanTagIds[n % scanTagIds.length]}`, expectStatus: 200, headers: { "User-Agent": BENCH_BROWSER, "Accept-Language": "es-ES,es;q=0.9" }, scanTags: true },
];

/** Registers a throwaway user for the authenticated scenarios and returns its access token (15 minutes). */
async function benchUserToken(): Promise<string> {
  const email = `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const response = await fetch(new URL("/api/v1/auth/register", baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "Bench-password-1", firstName: "Bench", lastName: "User" }),
  });
  const payload = (await response.json()) as { data?: { accessToken?: string }; error?: { message?: string } };
  if (response.status !== 201 || !payload.data?.accessToken) throw new Error(`registering the bench user failed (${response.status}): ${payload.error?.message ?? ""}`);
  return payload.data.accessToken;
}

let accessToken = "";

async function api<T>(method: string, path: string, body: unknown, token?: string): Promise<{ status: number; data?: T; message?: string }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(new URL(path, baseUrl), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const payload = (await response.json()) as { data?: T; error?: { message?: string } };
  return { status: response.status, data: payload.data, message: payload.error?.message };
}

/**
 * Five ACTIVE tags of the bench user (the FREE tier's limit) for the scan scenarios: minted by the admin,
 * claimed in one bulk activation, each given an item name; or, as a string, why they could not be.
 */
async function benchScanTags(): Promise<string[] | string> {
  const email = process.env.BENCH_ADMIN_EMAIL ?? process.env.ADMIN_EMAIL;
  const password = process.env.BENCH_ADMIN_PASSWORD ?? process.env.ADMIN_PASSWORD;
  if (!email || !password) return "no admin credentials (ADMIN_EMAIL and ADMIN_PASSWORD, as the server was started with) to mint tags";
  const login = await api<{ accessToken: string }>("POST", "/api/v1/auth/login", { email, password });
  if (login.status !== 200 || !login.data) return `the admin could not sign in (${login.status}: ${login.message ?? ""})`;
  const minted = await api<{ code: string }[]>("POST", "/api/v1/admin/tags/batch", { count: 5 }, login.data.accessToken);
  if (minted.status !== 201 || !minted.data) return `minting failed (${minted.status}: ${minted.message ?? ""})`;
  const claimed = await api<{ activated: { id: string; encryptedId: string }[] }>("POST", "/api/v1/tags/bulk-activate", { codes: minted.data.map((tag) => tag.code) }, accessToken);
  if (claimed.status !== 200 || !claimed.data?.activated.length) return `claiming the tags failed (${claimed.status}: ${claimed.message ?? ""})`;
  for (const [index, tag] of claimed.data.activated.entries()) {
    const named = await api("PATCH", `/api/v1/profiles/${tag.id}`, { itemName: `Bench item ${index + 1}`, description: "A tag the load test scans." }, accessToken);
    if (named.status !== 200) return `completing a profile failed (${named.status}: ${named.message ?? ""})`;
  }
  return claimed.data.activated.map((tag) => tag.encryptedId);
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function run(scenario: Scenario): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + TIME_CAP_MS;
  async function worker() {
    while (issued < REQUESTS && performance.now() < deadline) {
      const number = issued++;
      const t0 = performance.now();
      try {
        const headers = { ...scenario.headers, ...(scenario.authenticated ? { Authorization: `Bearer ${accessToken}` } : {}) };
        const path = typeof scenario.path === "function" ? scenario.path(number) : scenario.path;
        const response = await fetch(new URL(path, baseUrl), { method: scenario.method ?? "GET", body: scenario.body, headers });
        await response.arrayBuffer();
        if (response.status !== scenario.expectStatus) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    name: scenario.name,
    requests: latencies.length,
    errors,
    rps: round(latencies.length / elapsed),
    p50: round(percentile(latencies, 50)),
    p95: round(percentile(latencies, 95)),
    p99: round(percentile(latencies, 99)),
  };
}

const only = process.argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);

type Goal = { goal: string; figure: string; met: boolean | null };

function goalRow(goal: Goal): string {
  return `| ${goal.goal} | ${goal.figure} | ${goal.met === null ? "?" : goal.met ? "met" : "**not met**"} |`;
}

const databaseLabel = (database: string) => (database === "postgres" ? "PostgreSQL" : "PGlite");

async function runEmailBurst(): Promise<Goal[]> {
  // Never a real provider, and only warnings in the output; set before the app's modules read them.
  process.env.RESEND_API_KEY = "";
  process.env.LOG_LEVEL ??= "warn";
  const { emailBurst } = await import("./email-burst");
  const results = await emailBurst();
  for (const result of results) {
    console.log(
      `e-mail ${result.scenario} on ${result.database}: ${result.delivered}/${result.emails} handed to the transport in ${result.seconds} s ` +
        `(${result.perSecond}/s); commit to transport p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms`,
    );
    if (result.delivered < result.emails) process.exitCode = 1;
  }
  const goals = results
    .filter((result) => result.scenario === "burst")
    .map((result) => ({
      goal: `e-mail: commit → transport p99 ≤ 1 s in a burst of ${result.emails} (${databaseLabel(result.database)})`,
      figure: `p99 ${result.p99} ms, ${result.delivered}/${result.emails} handed over`,
      met: result.p99 <= 1_000 && result.delivered === result.emails,
    }));
  const { campaignBench } = await import("./campaign");
  for (const result of await campaignBench()) {
    console.log(
      `campaign (${result.run}) on ${result.database}: ${result.sent}/${result.addresses} addresses in ${result.seconds} s, ` +
        `${result.calls} provider calls, ${result.refused} refused for the rate`,
    );
    if (result.sent !== result.addresses || result.refused > 0) process.exitCode = 1;
    goals.push({
      goal: `campaign: ${result.addresses} addresses in ≤ 2 min (${result.run}, ${databaseLabel(result.database)})`,
      figure: `${result.seconds} s, ${result.calls} calls, ${result.sent}/${result.addresses} sent`,
      met: result.seconds <= 120 && result.sent === result.addresses && result.refused === 0,
    });
  }
  return goals;
}

async function runWebhookLoad(): Promise<Goal[]> {
  process.env.LOG_LEVEL ??= "warn";
  const { webhookLoad } = await import("./webhook-load");
  const results = await webhookLoad();
  for (const result of results) {
    console.log(
      `webhook on ${result.database}: ${result.acknowledged}/${result.events} acknowledged at ${result.ratePerSecond}/s, acknowledgement p50 ${result.p50} ms, ` +
        `p99 ${result.p99} ms, max ${result.max} ms; stored ${result.stored} (lost ${result.lost}), processed ${result.processed}; ` +
        `one event 10× at once: ${result.duplicateRows} row, ${result.duplicateJobs} job (${result.duplicateAnswers})`,
    );
    if (result.lost > 0 || result.acknowledged < result.events || result.duplicateRows !== 1 || result.duplicateJobs !== 1) process.exitCode = 1;
  }
  return results.map((result) => ({
    goal: `webhook: acknowledgement p99 ≤ 50 ms at 100 events/s, zero lost (${databaseLabel(result.database)})`,
    figure: `p99 ${result.p99} ms at ${result.ratePerSecond}/s, ${result.lost} lost`,
    met: result.p99 <= 50 && result.lost === 0,
  }));
}

const instancesArgument = process.argv.indexOf("--instances");
const instances = instancesArgument >= 0 ? Number(process.argv[instancesArgument + 1]) : undefined;

/** The scale-out checks and the SSE fan-out (bench/scale-out.ts); their goals join the table. */
async function runScaleOut(count = 2): Promise<Goal[]> {
  const { scaleOut, formatScaleOut, saveScaleOut } = await import("./scale-out");
  const result = await scaleOut(count);
  if (typeof result === "string") {
    console.log(`scale-out skipped: ${result}`);
    return [];
  }
  console.log(`\n${formatScaleOut(result)}\n\nfigures saved to ${saveScaleOut(result)}\n`);
  if (result.checks.some((c) => !c.passed)) process.exitCode = 1;
  return result.goals;
}

async function runCompare(otherGoals: Goal[]): Promise<boolean> {
  const { compare, formatCompare, saveCompare } = await import("./compare");
  const result = await compare();
  if (typeof result === "string") {
    console.log(`compare skipped: ${result}`);
    return false;
  }
  result.goals.push(...otherGoals);
  console.log(`\n${formatCompare(result)}\n\nfigures saved to ${saveCompare(result)}`);
  if (result.scenarios.some((s) => Object.values(s.mean).some((m) => m && (m.non2xx || m.errors)))) process.exitCode = 1;
  return true;
}

async function serverAnswers(): Promise<boolean> {
  try {
    await fetch(new URL("/api/health", baseUrl), { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

async function runHttp(): Promise<void> {
  if (!(await serverAnswers())) {
    console.log(`no server answers at ${baseUrl}: HTTP scenarios skipped (start one, see bench/run.ts)`);
    return;
  }
  const results: Result[] = [];
  if (scenarios.some((scenario) => scenario.authenticated || scenario.scanTags)) accessToken = await benchUserToken();
  let runnable = scenarios;
  if (scenarios.some((scenario) => scenario.scanTags)) {
    const prepared = await benchScanTags();
    if (typeof prepared === "string") {
      console.log(`scan scenarios skipped: ${prepared}`);
      runnable = scenarios.filter((scenario) => !scenario.scanTags);
    } else scanTagIds = prepared;
  }
  for (const scenario of runnable) {
    await run({ ...scenario }); // warm-up pass is discarded
    results.push(await run(scenario));
  }
  console.log(`target ${baseUrl}, ${REQUESTS} requests x ${CONCURRENCY} concurrent per scenario (absolute figures, for orientation only)`);
  for (const result of results) {
    console.log(`${result.name}: ${result.rps} req/s, p50 ${result.p50} ms, p95 ${result.p95} ms, p99 ${result.p99} ms, errors ${result.errors}`);
  }
  if (results.some((r) => r.errors > 0)) process.exitCode = 1;
}

const profiled = process.argv.find((arg) => arg.startsWith("--profile="))?.slice("--profile=".length);

/** The lost-pet alert fan-out (bench/alerts.ts), only with `-- --only=alerts`. */
async function runAlerts(): Promise<void> {
  process.env.RESEND_API_KEY = "";
  process.env.LOG_LEVEL ??= "warn";
  const { alertsBench, formatAlertsBench, saveAlertsBench } = await import("./alerts");
  const result = await alertsBench();
  if (typeof result === "string") return void console.log(`alerts skipped: ${result}`);
  console.log(`${formatAlertsBench(result)}\nsaved to ${saveAlertsBench(result)}`);
  if (result.notifications !== result.recipients || result.deliveryJobs === 0) process.exitCode = 1;
}

/** The growth bench (bench/growth.ts), only with `-- --only=growth`. */
async function runGrowth(): Promise<void> {
  process.env.RESEND_API_KEY = "";
  process.env.LOG_LEVEL ??= "warn";
  // The reads run through the route handlers from a handful of addresses: the limiter runs but never refuses.
  process.env.RATE_LIMIT_MULTIPLIER ??= "1000000";
  const { growthBench, growthSizes, growthTable, saveGrowth } = await import("./growth");
  const result = await growthBench(growthSizes(process.argv), console.log, saveGrowth);
  if (typeof result === "string") return void console.log(`growth skipped: ${result}`);
  console.log(`\n${growthTable(result)}\n\nsaved to ${saveGrowth(result)}`);
  if (result.failed || result.sizes.some((size) => size.timings.some((timing) => timing.failures.length))) process.exitCode = 1;
  // The app's rate limiter (Redis) and the job queue keep handles open; the bench is done.
  process.exit();
}

async function main() {
  if (only === "http") return runHttp();
  if (only === "alerts") return runAlerts();
  if (only === "growth") return runGrowth();
  if (profiled !== undefined) {
    const { profile } = await import("./profile");
    return void console.log(await profile(profiled));
  }
  if (instances !== undefined && (!Number.isInteger(instances) || instances < 2)) throw new Error("--instances takes a whole number of 2 or more");
  // `--instances N` runs the scale-out alone, with N instances.
  const part = instances !== undefined ? "scale-out" : only;
  const goals: Goal[] = [];
  if (part === undefined || part === "email") goals.push(...(await runEmailBurst()));
  if (part === undefined || part === "webhook") goals.push(...(await runWebhookLoad()));
  if (part === undefined || part === "scale-out") goals.push(...(await runScaleOut(instances)));
  const compared = (part === undefined || part === "compare") && (await runCompare(goals));
  if (!compared && goals.length) console.log(["", "| goal (issue 16) | figure | |", "|---|---|---|", ...goals.map(goalRow)].join("\n"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
