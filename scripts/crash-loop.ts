import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCrashLoop } from "./crash-loop-run";

// `npm run db:crash-loop -- [--cycles 20] [--data-dir DIR] [--keep]`: kills a process writing to the embedded
// database with SIGKILL mid-burst, N times in a row, each next process checking the data directory
// (docs/database.md, "The embedded database after a crash"). Without --data-dir it uses a fresh temporary
// directory, removed afterwards unless --keep or a failure. Exit codes: 0 every check passed, 1 one failed,
// 2 bad arguments.

const USAGE = `Usage: npm run db:crash-loop -- [--cycles N] [--data-dir DIR] [--keep]

  --cycles N      kill cycles (default 20)
  --data-dir DIR  the DATA_DIR to use (default: a fresh temporary directory); never one a running app has open
  --keep          keep the temporary directory afterwards`;

function parse(argv: string[]): { cycles: number; dataDir?: string; keep: boolean } | { error: string } | { help: true } {
  const options: { cycles: number; dataDir?: string; keep: boolean } = { cycles: 20, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") return { help: true };
    if (arg === "--keep") options.keep = true;
    else if (arg === "--cycles") {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 1 || value > 1000) return { error: "--cycles takes a whole number from 1 to 1000" };
      options.cycles = value;
    } else if (arg === "--data-dir") {
      const value = argv[++i];
      if (!value) return { error: "--data-dir takes a directory" };
      options.dataDir = value;
    } else return { error: `unknown argument ${arg}` };
  }
  return options;
}

async function main(): Promise<number> {
  const parsed = parse(process.argv.slice(2));
  if ("help" in parsed) {
    console.log(USAGE);
    return 0;
  }
  if ("error" in parsed) {
    console.error(`db:crash-loop: ${parsed.error}\n\n${USAGE}`);
    return 2;
  }
  const temporary = !parsed.dataDir;
  const dataDir = path.resolve(parsed.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "tag-service-crash-")));
  console.log(`db:crash-loop: ${parsed.cycles} SIGKILL cycles on ${dataDir}`);
  const started = performance.now();
  const result = await runCrashLoop({ cycles: parsed.cycles, dataDir, log: (line) => console.log(line) });
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  if (!result.ok) {
    console.error(`db:crash-loop: FAILED after ${result.cycles.length} cycles (${seconds} s): ${result.error}\nThe data directory is kept: ${dataDir}`);
    return 1;
  }
  // Cycle 1's process opened a fresh directory (initdb); every later open followed a kill.
  const opens = result.cycles.slice(1).map((cycle) => cycle.check.openMs).concat(result.final ? [result.final.openMs] : []);
  const acknowledged = result.cycles.reduce((sum, cycle) => sum + cycle.acknowledged, 0);
  console.log(
    `db:crash-loop: passed ${result.cycles.length} cycles in ${seconds} s: ${acknowledged} acknowledged batches, none lost or partial; ` +
      `opening after a kill took ${Math.min(...opens)}–${Math.max(...opens)} ms.`,
  );
  if (temporary && !parsed.keep) rmSync(dataDir, { recursive: true, force: true });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
