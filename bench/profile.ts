/**
 * `npm run bench -- --profile=<scenario>`: a V8 CPU profile of our server under one of the comparison's
 * loads (tag, messages, me, scan, finder), for bench/README.md's "Where the time goes". It starts one `next start`
 * of the build with `--cpu-prof` on a scratch PostgreSQL database (Redis rate limits as in the comparison),
 * seeds it as the comparison does, warms up, loads it for BENCH_PROFILE_SECONDS (15), stops it (the
 * profile is written on exit) and prints the breakdown of scripts/cpu-profile-summary.mjs per request, over
 * the load alone (its first second left out).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { accessTokenKey, signAccessToken } from "./access-token";
import { benchScenarios, load, seed, type Scenario } from "./compare";
import { children, freePort, nextStartEnvironment, startNext, stopChild, waitUntilAnswering, withCleanUp } from "./processes";
import { createScratchDatabase, migrateScratch } from "./scratch-postgres";

const repoRoot = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 15);

export async function profile(scenarioKey: string): Promise<string> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) return "needs PostgreSQL and Redis: set BENCH_DATABASE_URL (or DATABASE_URL) and BENCH_REDIS_URL (or REDIS_URL)";
  if (!existsSync(path.join(repoRoot, ".next", "BUILD_ID"))) return "no production build in .next: run `npm run build` first";

  const scratch = await createScratchDatabase(databaseUrl);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tagsvc-profile-"));
  const profileDir = path.join(repoRoot, "bench", "results", `profile-${scenarioKey}-${new Date().toISOString().slice(0, 19).replace(/:/g, "-")}`);
  mkdirSync(profileDir, { recursive: true });
  const cleanUp = async () => {
    await Promise.all([...children].map(stopChild));
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return withCleanUp(`stopping the server and dropping ${scratch.name}`, cleanUp, async () => {
    await migrateScratch(scratch.url);
    const secret = randomBytes(32).toString("base64url");
    const admin = { email: "bench-admin@example.com", password: `Bench-${randomBytes(9).toString("base64url")}` };
    const port = await freePort();
    const environment = nextStartEnvironment({ databaseUrl: scratch.url, redisUrl, appUrl: `http://127.0.0.1:${port}`, dataDir, authSecret: secret, admin, extra: { RATE_LIMIT_MULTIPLIER: "1000000", BENCH_FLOOR: "true" } });
    const server = startNext("ours (next start --cpu-prof)", port, environment, ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]);
    await waitUntilAnswering(server, "/api/health");
    const seeded = await seed(server.url, admin);
    // "floor": the framework floor, the empty route handler the comparison measures beside ours.
    const floor: Scenario = { key: "floor", title: "GET /api/bench-floor (the framework floor)", kind: "read", paths: () => ["/api/bench-floor"], headers: () => ({}), targets: ["floor"] };
    const scenarios = [...benchScenarios(seeded, ["ours"]), floor];
    const scenario = scenarios.find((s) => s.key === scenarioKey);
    if (!scenario) return `no scenario "${scenarioKey}": one of ${scenarios.map((s) => s.key).join(", ")}`;
    const token = `Bearer ${await signAccessToken(accessTokenKey(secret), { userId: seeded.userId, sessionId: seeded.sessionId })}`;
    await load(server.url, scenario.paths(), scenario.headers(token), 3);
    const result = await load(server.url, scenario.paths(), scenario.headers(token), SECONDS);
    const loadEnded = Date.now();
    await stopChild(server.child);
    // The summary counts the load's samples alone, less its first second: not the start-up (module loading,
    // the seeding, the warm-up's first compilations) nor the shut-down, which the profile also holds.
    const window = { LAST_MS: String((SECONDS - 1) * 1000), SKIP_LAST_MS: String(Date.now() - loadEnded) };
    const profiled = Math.round((result.requests.total * (SECONDS - 1)) / SECONDS);
    const written = readdirSync(profileDir).filter((file) => file.endsWith(".cpuprofile"));
    if (written.length === 0) return `the server wrote no profile into ${profileDir}`;
    // The largest profile is the server's (next start's parent process writes a small one too).
    const largest = written.map((file) => path.join(profileDir, file)).sort((a, b) => Number(execFileSync("stat", ["-c", "%s", b])) - Number(execFileSync("stat", ["-c", "%s", a])))[0]!;
    const summary = execFileSync(process.execPath, [path.join(repoRoot, "scripts/cpu-profile-summary.mjs"), largest], { env: { ...process.env, ...window, REQ: String(profiled), TOPFN: "25" } }).toString();
    return `${scenario.title}: ${result.requests.total} requests in ${SECONDS} s (${Math.round(result.requests.total / result.duration)} req/s, p99 ${result.latency.p99} ms; the last ${SECONDS - 1} s summarised, about ${profiled} requests), profile ${largest}\n${summary}`;
  });
}
