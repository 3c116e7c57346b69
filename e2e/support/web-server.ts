/**
 * The e2e web server: `next start` against a database nobody else uses, removed afterwards.
 * Run by Playwright's webServer (see playwright.config.ts) as `node --import tsx e2e/support/web-server.ts`.
 *
 * Why here and not in a Playwright globalSetup: Playwright starts the webServer before globalSetup
 * runs, and the server applies migrations on start (instrumentation.ts), so the database has to exist
 * before `next start` does. This process creates it, runs the server as a child, and on SIGTERM (sent by
 * Playwright's gracefulShutdown to the whole process group) waits for the server to stop and drops it.
 *
 * - DATABASE_URL set: CREATE DATABASE e2e_<runId> on that server, apply the migrations to it (what
 *   `npm run db:migrate` does: a production server start leaves PostgreSQL migrations to that step),
 *   and give the server a DATABASE_URL pointing at it; DROP DATABASE … WITH (FORCE) at the end.
 * - DATABASE_URL unset: a new temporary DATA_DIR for the embedded PGlite, deleted at the end.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

const port: string = process.env.E2E_PORT ?? missingPort();

function missingPort(): never {
  throw new Error("E2E_PORT is not set: start this through playwright.config.ts");
}
const runId = (process.env.E2E_RUN_ID ?? `${Date.now().toString(36)}_${process.pid}`).replace(/[^a-z0-9_]/gi, "");

function log(message: string) {
  process.stderr.write(`[e2e server] ${message}\n`);
}

async function withAdmin<T>(url: string, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(" ")} exited with ${code}`))));
  });
}

async function prepareDatabase(childEnv: NodeJS.ProcessEnv): Promise<() => Promise<void>> {
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const name = `e2e_${runId}`.toLowerCase();
    await withAdmin(adminUrl, (sql) => sql.unsafe(`CREATE DATABASE "${name}"`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    childEnv.DATABASE_URL = url.toString();
    log(`created database ${name}`);
    const drop = async () => {
      await withAdmin(adminUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      log(`dropped database ${name}`);
    };
    try {
      await run(process.execPath, ["--import", "tsx", "db/migrate.ts"], childEnv);
    } catch (error) {
      await drop();
      throw error;
    }
    return drop;
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "tag-service-e2e-"));
  childEnv.DATA_DIR = dataDir;
  log(`using a fresh PGlite data directory ${dataDir}`);
  return async () => {
    await rm(dataDir, { recursive: true, force: true });
    log(`removed ${dataDir}`);
  };
}

async function main() {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  const cleanup = await prepareDatabase(childEnv);

  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const server = spawn(process.execPath, [nextBin, "start", "--port", port], { env: childEnv, stdio: "inherit" });

  let stopping = false;
  const exited = new Promise<number>((resolve) => {
    server.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // Playwright signals the whole group, but forward in case we were signalled alone.
    if (server.exitCode === null && server.signalCode === null) server.kill(signal);
    const forceKill = setTimeout(() => server.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(forceKill);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));

  const code = await exited;
  stopping = true;
  try {
    await cleanup();
  } catch (error) {
    log(`cleanup failed: ${String(error)}`);
  }
  process.exit(code);
}

main().catch((error: unknown) => {
  log(`could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
