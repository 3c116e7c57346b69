/**
 * The bench's child processes (servers it starts, killed at the end, on failure and on Ctrl-C) and the CPU
 * time a process tree spent, from /proc. Shared by bench/compare.ts and bench/scale-out.ts.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import webpush from "web-push";

const START_TIMEOUT_MS = 120_000;
const repoRoot = process.cwd();

export interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
}

export const children = new Set<ChildProcess>();

function killChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal); // its whole process group (detached), so workers it forked go too
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    children.delete(child);
    return;
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  killChild(child, "SIGTERM");
  const timer = setTimeout(() => killChild(child, "SIGKILL"), 5_000);
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 8_000))]);
  clearTimeout(timer);
  children.delete(child);
}

export function killAllNow(): void {
  for (const child of children) killChild(child, "SIGKILL");
}

process.on("exit", killAllNow);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export async function waitUntilAnswering(server: Server, probePath: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`${server.name} exited while starting (${server.child.exitCode ?? server.child.signalCode}):\n${server.output.join("").slice(-3_000)}`);
    }
    try {
      const response = await fetch(new URL(probePath, server.url), { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${server.name} did not answer within ${START_TIMEOUT_MS / 1000} s:\n${server.output.join("").slice(-3_000)}`);
}

export function startServer(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, port: number): Server {
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  children.add(child);
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { name, url: `http://127.0.0.1:${port}`, child, output };
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

export function descendants(pid: number): number[] {
  const found = [pid];
  for (let i = 0; i < found.length; i++) {
    const current = found[i]!;
    try {
      for (const task of readdirSync(`/proc/${current}/task`)) {
        const text = readFileSync(`/proc/${current}/task/${task}/children`, "utf8").trim();
        if (text) found.push(...text.split(/\s+/).map(Number));
      }
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

/** utime + stime of the process and its descendants, in milliseconds. */
export function cpuMs(pid: number): number {
  let ticks = 0;
  for (const id of descendants(pid)) {
    try {
      const stat = readFileSync(`/proc/${id}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return (ticks * 1000) / CLOCK_TICKS;
}


/** Resident memory of the process and its descendants, in kilobytes (VmRSS from /proc). */
export function rssKb(pid: number): number {
  let total = 0;
  for (const id of descendants(pid)) {
    try {
      const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${id}/status`, "utf8"));
      if (match) total += Number(match[1]);
    } catch {
      // gone
    }
  }
  return total;
}

/** What `next start` needs of a production start (every secret generated for the run) plus `extra`. */
export function nextStartEnvironment(options: {
  databaseUrl: string;
  redisUrl: string;
  appUrl: string;
  dataDir: string;
  authSecret: string;
  admin: { email: string; password: string };
  extra?: Record<string, string>;
}): NodeJS.ProcessEnv {
  const vapid = webpush.generateVAPIDKeys();
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    AUTH_SECRET: options.authSecret,
    APP_URL: options.appUrl,
    DATA_DIR: options.dataDir,
    PAYMENT_WEBHOOK_SECRET: randomBytes(24).toString("base64url"),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: "mailto:bench@example.com",
    ADMIN_EMAIL: options.admin.email,
    ADMIN_PASSWORD: options.admin.password,
    LOG_LEVEL: "warn",
    ...options.extra,
  };
}

/** `next start` of the current build on 127.0.0.1:`port`; `nodeArguments` go to node (e.g. `--cpu-prof`). */
export function startNext(name: string, port: number, env: NodeJS.ProcessEnv, nodeArguments: string[] = []): Server {
  return startServer(name, process.execPath, [...nodeArguments, path.join(repoRoot, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], env, port);
}

/** Runs `work`, then `cleanUp`, which also runs (and the process exits) on Ctrl-C or SIGTERM meanwhile. */
export async function withCleanUp<T>(interrupted: string, cleanUp: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: ${interrupted}`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await work();
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    await cleanUp();
  }
}
