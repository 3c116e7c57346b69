import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { CrashCheck } from "./crash-loop-writer";

// The crash loop (`npm run db:crash-loop`, docs/database.md): start a process on the embedded database,
// let it write in a burst, kill it with SIGKILL, and have the next process check what it left, N times in
// a row on the same data directory and never a clean shutdown in between; a last process only checks.

export interface CrashLoopOptions {
  cycles: number;
  dataDir: string;
  /** How long after `ready` the kill comes, chosen at random in [min, max] milliseconds. */
  burstMs?: [number, number];
  /** A process that does not answer in this long fails the loop. */
  timeoutMs?: number;
  log?: (line: string) => void;
}

export interface CrashCycle {
  cycle: number;
  /** The check this cycle's process made of what the previous one left (cycle 1: a fresh directory). */
  check: CrashCheck;
  /** Batches this cycle's process acknowledged before the kill, and when the kill came after `ready`. */
  acknowledged: number;
  killedAfterMs: number;
  /** From the start to `ready`: opening, checking and starting like the server. */
  startMs: number;
}

export interface CrashLoopResult {
  ok: boolean;
  cycles: CrashCycle[];
  /** The last process's check, after the last kill. */
  final?: CrashCheck;
  error?: string;
}

const writer = path.resolve(process.cwd(), "scripts/crash-loop-writer.ts");

interface ChildRun {
  check?: CrashCheck;
  acknowledged: number;
  readyAt?: number;
  killedAfterMs: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function runChild(options: CrashLoopOptions, env: Record<string, string>, killAfterReady?: number): Promise<ChildRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, DATA_DIR: options.dataDir, NODE_ENV: "development", LOG_LEVEL: "error" };
  // The embedded database whatever the shell has set.
  delete childEnv.DATABASE_URL;
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", writer], { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  const run: ChildRun = { acknowledged: 0, killedAfterMs: 0, code: null, signal: null, stderr: "" };
  let buffered = "";
  let killTimer: NodeJS.Timeout | undefined;
  const timeout = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.startsWith("check ")) run.check = JSON.parse(line.slice(6)) as CrashCheck;
      else if (line.startsWith("committed ")) run.acknowledged = Math.max(run.acknowledged, Number(line.slice(10)));
      else if (line === "ready" && killAfterReady !== undefined) {
        run.readyAt = performance.now() - started;
        const readyAt = performance.now();
        killTimer = setTimeout(() => {
          run.killedAfterMs = Math.round(performance.now() - readyAt);
          child.kill("SIGKILL");
        }, killAfterReady);
      }
    }
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    run.stderr = (run.stderr + chunk).slice(-4000);
  });
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(timeout);
      if (killTimer) clearTimeout(killTimer);
      run.code = code;
      run.signal = signal;
      resolve(run);
    });
  });
}

/** Runs the loop; stops at the first cycle whose check fails (the directory is left for a look). */
export async function runCrashLoop(options: CrashLoopOptions): Promise<CrashLoopResult> {
  const log = options.log ?? (() => {});
  const [min, max] = options.burstMs ?? [300, 1500];
  const run = randomBytes(3).toString("hex");
  const expected: Record<string, number> = {};
  const cycles: CrashCycle[] = [];
  for (let cycle = 1; cycle <= options.cycles; cycle++) {
    const killAfter = Math.round(min + Math.random() * (max - min));
    const started = performance.now();
    const child = await runChild(options, { CRASH_MODE: "burst", CRASH_RUN: run, CRASH_CYCLE: String(cycle), CRASH_EXPECT: JSON.stringify(expected) }, killAfter);
    if (!child.check) return { ok: false, cycles, error: `cycle ${cycle}: the process ended (${child.signal ?? child.code}) before its check: ${child.stderr.trim()}` };
    if (!child.check.ok) {
      cycles.push({ cycle, check: child.check, acknowledged: 0, killedAfterMs: 0, startMs: 0 });
      return { ok: false, cycles, error: `cycle ${cycle}: ${child.check.problems.join("; ")}` };
    }
    if (child.readyAt === undefined || child.signal !== "SIGKILL") {
      return { ok: false, cycles, error: `cycle ${cycle}: the process ended (${child.signal ?? child.code}) before it was killed: ${child.stderr.trim()}` };
    }
    expected[String(cycle)] = child.acknowledged;
    const entry: CrashCycle = { cycle, check: child.check, acknowledged: child.acknowledged, killedAfterMs: child.killedAfterMs, startMs: Math.round(child.readyAt) };
    cycles.push(entry);
    log(
      `cycle ${String(cycle).padStart(2)}: opened in ${entry.check.openMs} ms, checked ${entry.check.tables} tables / ${entry.check.indexesChecked} indexes in ${entry.check.checkMs} ms, ` +
        `killed ${entry.killedAfterMs} ms into the burst after ${entry.acknowledged} acknowledged batches (${Math.round(performance.now() - started)} ms in all)`,
    );
  }
  const last = await runChild(options, { CRASH_MODE: "check", CRASH_RUN: run, CRASH_EXPECT: JSON.stringify(expected) });
  if (!last.check) return { ok: false, cycles, error: `final check: the process ended (${last.signal ?? last.code}): ${last.stderr.trim()}` };
  log(`final check: opened in ${last.check.openMs} ms, ${last.check.rows} rows in ${last.check.tables} tables, ${last.check.lost} acknowledged batches lost, ${last.check.partial} partial`);
  return { ok: last.check.ok, cycles, final: last.check, error: last.check.ok ? undefined : last.check.problems.join("; ") };
}
