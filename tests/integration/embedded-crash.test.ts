import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, openSync, closeSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newPglite, pgliteDataDir } from "@/db/client";
import { checkEmbeddedDatabase } from "@/db/embedded-check";
import { runCrashLoop } from "@/scripts/crash-loop-run";

// docs/database.md "The embedded database after a crash": `npm run db:crash-loop` runs 20 cycles; here 3,
// and a deliberately damaged copy that the check and the server's start refuse with how to recover.

const work = mkdtempSync(path.join(os.tmpdir(), "embedded-crash-"));
const dataDir = path.join(work, "data");

afterAll(() => rmSync(work, { recursive: true, force: true }));

function damagedCopy(name: string, damage: (pgliteDir: string) => void): string {
  const copy = path.join(work, name);
  cpSync(dataDir, copy, { recursive: true });
  damage(pgliteDataDir(copy));
  return copy;
}

function overwrite(file: string, bytes: Buffer, at = 0): void {
  const fd = openSync(file, "r+");
  try {
    writeSync(fd, bytes, 0, bytes.length, at);
  } finally {
    closeSync(fd);
  }
}

/** The server's boot (lib/server-boot.ts, as instrumentation.ts calls it) on `directory`. */
function boot(directory: string): Promise<{ code: number | null; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: directory, NODE_ENV: "development", LOG_LEVEL: "error" };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "--eval", "import('./lib/server-boot.ts').then((m) => (m.bootServer ?? m.default.bootServer)())"], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

describe("the embedded database killed mid-burst", () => {
  it("opens, reads whole and takes writes after 3 SIGKILLs in a row, every acknowledged batch there and none half-written", async () => {
    const result = await runCrashLoop({ cycles: 3, dataDir, burstMs: [200, 700] });
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.cycles).toHaveLength(3);
    expect(result.final).toMatchObject({ ok: true, lost: 0, partial: 0 });
    expect(result.final!.cycles.map((cycle) => cycle.found >= cycle.acknowledged)).toEqual([true, true, true]);
    expect(result.cycles.reduce((sum, cycle) => sum + cycle.acknowledged, 0)).toBeGreaterThan(0);
    expect(result.final!.indexesChecked).toBeGreaterThan(100);
  });

  it("a damaged data directory: the check says so and the server's start stops with how to recover", async () => {
    const healthy = newPglite(pgliteDataDir(dataDir));
    const intact = await checkEmbeddedDatabase(healthy);
    const usersFile = (await healthy.query<{ path: string }>("select pg_relation_filepath('users') as path")).rows[0]!.path;
    await healthy.close();
    expect(intact).toMatchObject({ ok: true });
    expect(intact.tables).toBeGreaterThan(50);

    // pg_control zeroed: PGlite does not start.
    const noControl = damagedCopy("no-control", (dir) => overwrite(path.join(dir, "global/pg_control"), Buffer.alloc(8192)));
    const refused = await checkEmbeddedDatabase(newPglite(pgliteDataDir(noControl)));
    expect(refused.ok).toBe(false);
    expect(refused.error).toBeTruthy();

    // A table's first page overwritten with noise: it opens, but the users table cannot be read.
    const noisy = damagedCopy("noisy-page", (dir) => overwrite(path.join(dir, usersFile), randomBytes(8192)));
    const unreadable = newPglite(pgliteDataDir(noisy));
    const check = await checkEmbeddedDatabase(unreadable);
    await unreadable.close().catch(() => {});
    expect(check.ok).toBe(false);
    expect(check.error).toMatch(/invalid page|page/i);

    const started = await boot(noControl);
    expect(started.code).toBe(1);
    expect(started.stderr).toContain(`Refusing to start: The embedded database in ${pgliteDataDir(noControl)} cannot be used`);
    expect(started.stderr).toContain("npm run db:restore");
    expect(started.stderr).toContain(`rm -rf ${pgliteDataDir(noControl)}`);
  });
});
